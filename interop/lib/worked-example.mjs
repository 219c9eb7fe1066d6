// Replays a worked example written in Markdown (examples/*.md) against a live server.
//
// The format, in document order:
//   ```json TOOL        a tool call; the block holds the exact arguments. "<name>" stands for a
//                       value saved earlier (inside a JSON string, so "<claim_id>" becomes the ID).
//   ```sh cortex        one `cortex ...` command per line, run with the same launcher and
//                       CORTEX_HOME as the server; its result is {exit_code, stdout}.
//   <!-- expect: PATH = JSON -->         the last result's value at PATH equals JSON (deeply).
//   <!-- expect: PATH contains JSON -->  a string contains a string, or an array has an element
//                                        that matches JSON (objects match on the keys given).
//   <!-- save: NAME = PATH; NAME = PATH -->  remember values of the last result.
//   <!-- reconnect -->                   close the client and start a new server process.
// PATH is dotted and indexed: `findings[0].rule_id`, `criteria.length`; `[*]` maps over an
// array: `findings[*].rule_id`. Every other fenced block (```text, plain ```json) is prose, and
// every HTML comment outside a fence must be one of the directives above.
import { isDeepStrictEqual } from 'node:util';

const FENCE = /^(\s*)(`{3,}|~{3,})\s*(.*)$/;
const COMMENT = /<!--([\s\S]*?)-->/g;
const PLACEHOLDER = /<([A-Za-z_][A-Za-z0-9_]*)>/g;

/** Parses the Markdown into steps: {kind: 'call' | 'cli' | 'reconnect', ...}. Throws on bad syntax. */
export function parseExample(markdown) {
  const lines = markdown.split('\n');
  const steps = [];
  let fence = null;
  let blocks = 0;
  const last = (lineNo, directive) => {
    const step = steps.at(-1);
    if (!step || step.kind === 'reconnect') {
      throw new Error(`line ${lineNo}: '${directive}' has no tool call or command before it`);
    }
    return step;
  };
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i];
    const m = FENCE.exec(line);
    if (fence) {
      if (m && m[2][0] === fence.marker[0] && m[2].length >= fence.marker.length && m[3] === '') {
        finishBlock(fence, steps, () => ++blocks);
        fence = null;
      } else {
        fence.body.push(line);
      }
      continue;
    }
    if (m) {
      fence = { marker: m[2], info: m[3].trim().split(/\s+/), line: lineNo, body: [] };
      continue;
    }
    for (const [, inner] of line.matchAll(COMMENT)) {
      parseDirective(inner.trim(), lineNo, steps, last);
    }
    if (/<!--/.test(line.replace(COMMENT, ''))) {
      throw new Error(`line ${lineNo}: an HTML comment must open and close on one line`);
    }
  }
  if (fence) throw new Error(`line ${fence.line}: the fenced block is never closed`);
  return steps;
}

function finishBlock(fence, steps, nextBlock) {
  const [lang, name] = fence.info;
  const body = fence.body.join('\n');
  if (lang === 'json' && name) {
    const n = nextBlock();
    steps.push({ kind: 'call', block: n, tool: name, line: fence.line, template: body, expects: [], saves: [] });
  } else if (lang === 'sh' && name === 'cortex') {
    const n = nextBlock();
    const commands = body.split('\n').map((l) => l.trim()).filter(Boolean);
    for (const command of commands) {
      const words = command.split(/\s+/);
      if (words[0] !== 'cortex') {
        throw new Error(`line ${fence.line}: a 'sh cortex' block holds only 'cortex ...' commands, got: ${command}`);
      }
    }
    if (commands.length !== 1) {
      throw new Error(`line ${fence.line}: a 'sh cortex' block holds exactly one command`);
    }
    steps.push({ kind: 'cli', block: n, tool: commands[0], line: fence.line, template: commands[0], expects: [], saves: [] });
  }
}

function parseDirective(text, lineNo, steps, last) {
  if (text === 'reconnect') {
    steps.push({ kind: 'reconnect', line: lineNo });
    return;
  }
  const m = /^(expect|save):\s*([\s\S]+)$/.exec(text);
  if (!m) throw new Error(`line ${lineNo}: unknown directive <!-- ${text} -->`);
  const step = last(lineNo, m[1]);
  if (m[1] === 'expect') {
    const e = /^(\S+)\s+(=|contains)\s+([\s\S]+)$/.exec(m[2].trim());
    if (!e) throw new Error(`line ${lineNo}: expected 'expect: PATH = JSON' or 'expect: PATH contains JSON'`);
    parsePath(e[1], lineNo);
    step.expects.push({ line: lineNo, source: m[2].trim(), path: e[1], op: e[2], literal: e[3].trim() });
  } else {
    for (const part of m[2].split(';').map((s) => s.trim()).filter(Boolean)) {
      const s = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(\S+)$/.exec(part);
      if (!s) throw new Error(`line ${lineNo}: expected 'save: NAME = PATH', got '${part}'`);
      parsePath(s[2], lineNo);
      step.saves.push({ line: lineNo, name: s[1], path: s[2] });
    }
  }
}

/** `a.b[0].c[*]` -> ['a', 'b', 0, 'c', '*']. */
export function parsePath(path, lineNo = '?') {
  const segments = [];
  const re = /\.?([^.[\]]+)|\[(\d+|\*)\]/gy;
  let m;
  let at = 0;
  while (at < path.length && (m = re.exec(path)) !== null) {
    segments.push(m[1] !== undefined ? m[1] : m[2] === '*' ? '*' : Number(m[2]));
    at = re.lastIndex;
  }
  if (at !== path.length || segments.length === 0) {
    throw new Error(`line ${lineNo}: bad path '${path}'`);
  }
  return segments;
}

/** The value at path, or undefined; `*` maps the rest of the path over an array. */
export function valueAt(value, path) {
  return walk(value, parsePath(path));
}

function walk(value, segments) {
  if (segments.length === 0) return value;
  const [head, ...rest] = segments;
  if (value === null || value === undefined) return undefined;
  if (head === '*') return Array.isArray(value) ? value.map((v) => walk(v, rest)) : undefined;
  return walk(value[head], rest);
}

/** Objects match on the keys the expected object names; everything else must be deeply equal. */
function matches(actual, expected) {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    return actual !== null && typeof actual === 'object' && !Array.isArray(actual)
      && Object.keys(expected).every((k) => matches(actual[k], expected[k]));
  }
  return isDeepStrictEqual(actual, expected);
}

/** Replaces "<name>" placeholders with saved values, escaped for a JSON string. */
export function substitute(text, saved, where) {
  return text.replace(PLACEHOLDER, (_, name) => {
    if (!(name in saved)) throw new Error(`${where}: no saved value '<${name}>'`);
    const v = saved[name];
    return typeof v === 'string' ? JSON.stringify(v).slice(1, -1) : JSON.stringify(v);
  });
}

function describe(step) {
  return `block ${step.block} (${step.kind === 'call' ? step.tool : `'${step.tool}'`}, line ${step.line})`;
}

function brief(value) {
  const text = JSON.stringify(value);
  return text === undefined ? 'undefined' : text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/** Checks one expectation against a result; returns null or a message naming block and expectation. */
export function check(step, expectation, result, saved) {
  const where = `${describe(step)}, expect at line ${expectation.line}`;
  let expected;
  try {
    expected = JSON.parse(substitute(expectation.literal, saved, where));
  } catch (e) {
    return `${where}: '${expectation.literal}' is not a JSON literal (${e.message})`;
  }
  const actual = valueAt(result, expectation.path);
  const ok = expectation.op === '='
    ? isDeepStrictEqual(actual, expected)
    : typeof actual === 'string'
      ? typeof expected === 'string' && actual.includes(expected)
      : Array.isArray(actual) && actual.some((element) => matches(element, expected));
  return ok ? null : `${where}: <!-- expect: ${expectation.source} --> failed: got ${brief(actual)}`;
}

/**
 * Runs the steps in order.
 *   connect(): Promise<{ callTool(name, args): Promise<CallToolResult>, close(): Promise<void>, pid }>
 *   runCli(args): Promise<{ exit_code, stdout, stderr }>
 * Resolves with {saved, pids, calls}; rejects with an Error naming the block and expectation.
 */
export async function replayExample(steps, { connect, runCli }) {
  const saved = {};
  const pids = [];
  const calls = [];
  let session = await connect();
  pids.push(session.pid);
  try {
    for (const step of steps) {
      if (step.kind === 'reconnect') {
        await session.close();
        session = null;
        session = await connect();
        pids.push(session.pid);
        continue;
      }
      const text = substitute(step.template, saved, describe(step));
      let result;
      if (step.kind === 'call') {
        let args;
        try {
          args = JSON.parse(text);
        } catch (e) {
          throw new Error(`${describe(step)}: the arguments are not JSON (${e.message})`);
        }
        const reply = await session.callTool(step.tool, args);
        if (reply.isError) {
          throw new Error(`${describe(step)}: the tool returned an error: ${reply.content?.[0]?.text}`);
        }
        result = reply.structuredContent;
        if (result === undefined) throw new Error(`${describe(step)}: no structuredContent`);
        const mirrored = JSON.parse(reply.content?.[0]?.text ?? 'null');
        if (!isDeepStrictEqual(mirrored, result)) {
          throw new Error(`${describe(step)}: the text content does not mirror structuredContent`);
        }
        calls.push(step.tool);
      } else {
        result = await runCli(text.split(/\s+/).slice(1));
        calls.push(step.tool);
      }
      const failures = step.expects.map((e) => check(step, e, result, saved)).filter(Boolean);
      if (failures.length > 0) {
        throw new Error(`${failures.join('\n')}\nresult: ${brief(result)}`);
      }
      for (const s of step.saves) {
        const value = valueAt(result, s.path);
        if (value === undefined) {
          throw new Error(`${describe(step)}, save at line ${s.line}: nothing at '${s.path}' to save as '${s.name}'`);
        }
        saved[s.name] = value;
      }
    }
  } finally {
    await session?.close();
  }
  return { saved, pids, calls };
}
