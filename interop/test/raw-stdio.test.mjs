// Raw stdio framing: our own line reader/writer against the server process, no SDK.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  STARTUP_TIMEOUT_MS, cortexBin, ensureBuilt, exited, repoRoot, serverArgs, stopProcess, withTimeout, EXPECTED_TOOLS,
} from '../lib/cortex.mjs';

/** Spawns the server and reads its stdout line by line. */
function startRaw() {
  const child = spawn(cortexBin, serverArgs, { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
  const lines = [];
  const waiters = [];
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const w of waiters.splice(0)) w();
  });
  /** Resolves with the next stdout line (as text) after those already consumed. */
  let consumed = 0;
  async function nextLine(timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    while (consumed >= lines.length) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`server exited (${child.exitCode ?? child.signalCode}); stderr:\n${stderr}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no stdout line within ${timeoutMs} ms; stderr:\n${stderr}`);
      await withTimeout(new Promise((r) => waiters.push(r)), left, 'a stdout line').catch(() => {});
    }
    return lines[consumed++];
  }
  const send = (text) => child.stdin.write(text + '\n');
  const request = (id, method, params) =>
    send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }));
  return { child, lines, nextLine, send, request, stderr: () => stderr };
}

/** Asserts one stdout line is a well-formed JSON-RPC 2.0 message; returns it parsed. */
function assertJsonRpc(line) {
  let msg;
  assert.doesNotThrow(() => { msg = JSON.parse(line); }, `stdout line is not JSON: ${line}`);
  assert.equal(typeof msg, 'object');
  assert.ok(msg !== null && !Array.isArray(msg), `not a single JSON object: ${line}`);
  assert.equal(msg.jsonrpc, '2.0', line);
  if ('method' in msg) {
    assert.equal(typeof msg.method, 'string', line);
  } else {
    assert.ok('id' in msg, `response without id: ${line}`);
    assert.ok(('result' in msg) !== ('error' in msg), `exactly one of result/error: ${line}`);
    if (msg.error) {
      assert.ok(Number.isInteger(msg.error.code), line);
      assert.equal(typeof msg.error.message, 'string', line);
    }
  }
  return msg;
}

describe('raw stdio framing', { timeout: 600_000 }, () => {
  let s;

  before(async () => {
    await ensureBuilt();
    s = startRaw();
  });

  after(async () => {
    await stopProcess(s?.child);
  });

  test('a malformed line gets -32700 and the server keeps serving', async () => {
    // Sent before initialize: the very first thing the server sees is garbage.
    s.send('this is not json {');
    const parseErr = assertJsonRpc(await s.nextLine(STARTUP_TIMEOUT_MS));
    assert.equal(parseErr.id, null);
    assert.equal(parseErr.error.code, -32700);

    s.request(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw-stdio', version: '0' },
    });
    const init = assertJsonRpc(await s.nextLine());
    assert.equal(init.id, 1);
    assert.equal(init.result.serverInfo.name, 'cortex');
    s.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));

    s.send('{"jsonrpc":"2.0","id":2,"method":"ping"'); // truncated JSON
    const parseErr2 = assertJsonRpc(await s.nextLine());
    assert.equal(parseErr2.error.code, -32700);

    s.request(3, 'ping');
    const pong = assertJsonRpc(await s.nextLine());
    assert.equal(pong.id, 3);
    assert.deepEqual(pong.result, {});

    s.request(4, 'tools/list');
    const list = assertJsonRpc(await s.nextLine());
    assert.equal(list.id, 4);
    const names = list.result.tools.map((t) => t.name).sort();
    assert.deepEqual(names, EXPECTED_TOOLS);
  });

  test('a batch (JSON array) line gets -32600 and the server keeps serving', async () => {
    s.send(JSON.stringify([{ jsonrpc: '2.0', id: 5, method: 'ping' }, { jsonrpc: '2.0', id: 6, method: 'ping' }]));
    const batchErr = assertJsonRpc(await s.nextLine());
    assert.equal(batchErr.error.code, -32600);
    assert.ok(!('result' in batchErr));

    s.request(7, 'ping');
    const pong = assertJsonRpc(await s.nextLine());
    assert.equal(pong.id, 7);
    assert.deepEqual(pong.result, {});
  });

  test('closing stdin makes the server exit promptly', async () => {
    const t0 = Date.now();
    s.child.stdin.end();
    const { code, signal } = await withTimeout(exited(s.child), 5_000, 'server exit after stdin closed');
    assert.equal(signal, null, 'exited by itself, not killed');
    assert.equal(code, 0, `exit code; stderr:\n${s.stderr()}`);
    assert.ok(Date.now() - t0 < 5_000);
  });

  test('every stdout line was a JSON-RPC 2.0 message', () => {
    assert.ok(s.lines.length >= 7, `saw ${s.lines.length} lines`);
    for (const line of s.lines) assertJsonRpc(line);
  });
});
