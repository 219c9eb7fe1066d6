// Replays examples/authentication-verification.md with the official TypeScript SDK client: once
// against bin/cortex, once against the packaged jar copied alone into a temporary directory (the
// package smoke test). See lib/worked-example.mjs for the format of the example.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { STARTUP_TIMEOUT_MS, cortexBin, ensureBuilt, repoRoot, serverEnv } from '../lib/cortex.mjs';
import { parseExample, replayExample } from '../lib/worked-example.mjs';

const execFileP = promisify(execFile);
const EXAMPLE = path.join(repoRoot, 'examples', 'authentication-verification.md');
const LEDGER_TOOLS = [
  'cortex_create_claim', 'cortex_add_evidence', 'cortex_track_assumption',
  'cortex_update_assumption', 'cortex_review', 'cortex_get_context',
];
const CALL_TIMEOUT_MS = 60_000;

const steps = parseExample(readFileSync(EXAMPLE, 'utf8'));
const temps = [];

function tempDir(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/**
 * A launcher: how to start `cortex ...` as a process. connect() starts `cortex mcp --bundles
 * evidence` under the SDK client; runCli(args) runs one command to completion.
 */
function launcher({ command, prefix, cwd, env }) {
  return {
    async connect() {
      const transport = new StdioClientTransport({
        command, args: [...prefix, 'mcp', '--bundles', 'evidence'], cwd, env, stderr: 'pipe',
      });
      let stderr = '';
      transport.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
      const client = new Client({ name: 'cortex-worked-example', version: '0.0.0' });
      await client.connect(transport, { timeout: STARTUP_TIMEOUT_MS });
      return {
        pid: transport.pid,
        async callTool(name, args) {
          try {
            return await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
          } catch (e) {
            e.message += `\nserver stderr (tail):\n${stderr}`;
            throw e;
          }
        },
        close: () => client.close(),
      };
    },
    async runCli(args) {
      try {
        const { stdout, stderr } = await execFileP(command, [...prefix, ...args], { cwd, env, timeout: 120_000 });
        return { exit_code: 0, stdout, stderr };
      } catch (e) {
        if (typeof e.code !== 'number') throw e;
        return { exit_code: e.code, stdout: e.stdout, stderr: e.stderr };
      }
    },
  };
}

async function replay(how) {
  const outcome = await replayExample(steps, how);
  assert.equal(new Set(outcome.pids).size, outcome.pids.length, 'each reconnect started a new server process');
  return outcome;
}

describe('worked example: examples/authentication-verification.md', { timeout: 900_000 }, () => {
  after(() => {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  });

  test('the example calls every ledger tool, checks every call and reconnects once', () => {
    const calls = steps.filter((s) => s.kind === 'call');
    assert.deepEqual([...new Set(calls.map((s) => s.tool))].sort(), [...LEDGER_TOOLS].sort());
    for (const call of calls) {
      assert.ok(call.expects.length > 0, `block ${call.block} (${call.tool}, line ${call.line}) has an expectation`);
    }
    assert.equal(steps.filter((s) => s.kind === 'reconnect').length, 1);
  });

  test('a failed expectation names its block and expectation', async () => {
    const fake = parseExample([
      '```json cortex_review', '{}', '```',
      '<!-- expect: findings[0].rule_id = "MISSING_REQUIRED_EVIDENCE" -->',
    ].join('\n'));
    const result = { findings: [{ rule_id: 'UNVERIFIED_CLAIM' }] };
    const session = {
      pid: 1,
      callTool: async () => ({ structuredContent: result, content: [{ type: 'text', text: JSON.stringify(result) }] }),
      close: async () => {},
    };
    await assert.rejects(
      replayExample(fake, { connect: async () => session, runCli: async () => ({}) }),
      /block 1 \(cortex_review, line 1\), expect at line 4: <!-- expect: findings\[0\]\.rule_id = "MISSING_REQUIRED_EVIDENCE" --> failed: got "UNVERIFIED_CLAIM"/,
    );
  });

  test('replays against bin/cortex mcp --bundles evidence', async () => {
    await ensureBuilt();
    const env = { ...serverEnv(getDefaultEnvironment()), CORTEX_HOME: tempDir('cortex-example-') };
    const { calls } = await replay(launcher({ command: cortexBin, prefix: [], cwd: repoRoot, env }));
    assert.equal(calls.length, steps.filter((s) => s.kind !== 'reconnect').length);
  });

  test('package smoke test: the jar alone in a temporary directory', async () => {
    await ensureBuilt();
    const dir = tempDir('cortex-package-');
    const jar = path.join(dir, 'cortex.jar');
    copyFileSync(path.join(repoRoot, 'app', 'cli', 'target', 'cortex.jar'), jar);
    const home = path.join(dir, 'home');
    const java = process.env.CORTEX_JAVA
      ?? (process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java');
    const javaOpts = [...(process.env.CORTEX_JAVA_OPTS ?? '').split(/\s+/).filter(Boolean), '-Dcortex.checkOutputs=true'];
    const env = { ...getDefaultEnvironment(), CORTEX_HOME: home };
    await replay(launcher({ command: java, prefix: [...javaOpts, '-jar', jar], cwd: dir, env }));

    const database = path.join(home, 'data', 'cortex.sqlite3');
    const mode = statSync(database).mode & 0o777;
    assert.equal(mode.toString(8), '600', `${database} is owner-only`);
    assert.equal((statSync(path.dirname(database)).mode & 0o777).toString(8), '700', 'the data directory is owner-only');
  });
});
