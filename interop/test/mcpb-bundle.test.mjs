// The release's MCP bundle unpacked by the official bundle tool (@anthropic-ai/mcpb), as hosts
// unpack it, its manifest validated by that tool, and its server started as the manifest says.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { STARTUP_TIMEOUT_MS, ensureBuilt, interopDir, repoRoot } from '../lib/cortex.mjs';

const execFileP = promisify(execFile);
const mcpb = path.join(interopDir, 'node_modules', '.bin', 'mcpb');

describe('the MCP bundle through the official mcpb tool', { timeout: 900_000 }, () => {
  let work;
  let bundle;
  let unpacked;

  before(async (context) => {
    await ensureBuilt();
    work = await mkdtemp(path.join(tmpdir(), 'cortex-mcpb-'));
    const out = path.join(work, 'release');
    try {
      await execFileP(
        path.join(repoRoot, 'tools', 'release', 'build'),
        ['--jar', path.join(repoRoot, 'app', 'cli', 'target', 'cortex.jar'),
          '--repository', 'example-owner/cortex', '--out', out],
        { timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
      );
    } catch (e) {
      // As the release suite does: a machine without a JDK that links images skips, CI fails.
      if (/no JDK with jlink/.test(String(e.stderr)) && process.env.CI !== 'true') {
        context.skip?.('no JDK with jlink here');
        return;
      }
      throw e;
    }
    const name = (await readdir(out)).find((f) => f.endsWith('.mcpb'));
    assert.ok(name, 'tools/release/build made a .mcpb');
    bundle = path.join(out, name);
    unpacked = path.join(work, 'unpacked');
  });

  after(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  test('mcpb unpack opens it, and mcpb validate passes its manifest', async (t) => {
    if (!bundle) return t.skip('no bundle was built');
    // Regression: the bundle's folder entries made 'mcpb unpack' fail with EISDIR.
    await execFileP(mcpb, ['unpack', bundle, unpacked], { timeout: 120_000 });
    const { stdout } = await execFileP(mcpb, ['validate', path.join(unpacked, 'manifest.json')], {
      timeout: 120_000,
    });
    assert.match(stdout, /validation passes/i);
  });

  test('the unpacked server answers initialize and a tool call with the settings left empty', async (t) => {
    if (!bundle) return t.skip('no bundle was built');
    const manifest = JSON.parse(await readFile(path.join(unpacked, 'manifest.json'), 'utf8'));
    const config = manifest.server.mcp_config;
    const env = { ...getDefaultEnvironment(), CORTEX_HOME: path.join(work, 'home') };
    for (const [key, value] of Object.entries(config.env)) {
      // A host replaces ${user_config.KEY} with the person's value: here, none given.
      if (!/^\$\{user_config\./.test(value)) env[key] = value;
      else if (key !== 'CORTEX_HOME') env[key] = '';
    }
    const transport = new StdioClientTransport({
      command: config.command.replace('${__dirname}', unpacked),
      args: config.args,
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cortex-interop-mcpb', version: '0.0.0' });
    try {
      await client.connect(transport, { timeout: STARTUP_TIMEOUT_MS });
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), manifest.tools.map((t) => t.name));
      const health = await client.callTool({ name: 'cortex_health', arguments: {} });
      assert.equal(health.isError ?? false, false, JSON.stringify(health));
    } finally {
      await client.close();
    }
  });
});
