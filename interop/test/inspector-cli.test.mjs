// The MCP Inspector's CLI mode (`--cli`) against cortex, over stdio and over streamable HTTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import path from 'node:path';
import {
  STARTUP_TIMEOUT_MS, cortexBin, ensureBuilt, interopDir, serverArgs, startHttpServer, stopProcess, EXPECTED_TOOLS,
} from '../lib/cortex.mjs';

const execFileP = promisify(execFile);

// @modelcontextprotocol/inspector-cli provides the `--cli` mode (the full
// @modelcontextprotocol/inspector package only wraps it, and requires Node >= 22).
const inspectorBin = path.join(interopDir, 'node_modules', '.bin', 'mcp-inspector-cli');
// Workaround for inspector-cli 1.0.3: it checks fs.existsSync('../package.json') relative to the
// *working directory* but imports it relative to its own module, so it only finds its own
// package.json when run from a directory one level below a package root. Its build/ directory
// is such a place, and the right one.
const inspectorCwd = path.dirname(fileURLToPath(import.meta.resolve('@modelcontextprotocol/inspector-cli')));

async function inspector(...args) {
  try {
    const { stdout, stderr } = await execFileP(inspectorBin, ['--cli', ...args], {
      cwd: inspectorCwd,
      env: { ...process.env, MCP_AUTO_OPEN_ENABLED: 'false', BROWSER: 'none' },
      timeout: STARTUP_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
    try {
      return JSON.parse(stdout);
    } catch {
      throw new Error(`inspector stdout is not JSON:\n${stdout}\nstderr:\n${stderr}`);
    }
  } catch (e) {
    if (e.stdout !== undefined) e.message += `\nstdout:\n${e.stdout}\nstderr:\n${e.stderr}`;
    throw e;
  }
}

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
