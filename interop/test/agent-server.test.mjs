// The official TypeScript MCP SDK client calling the remote tools of `core` through a real agent
// server (`cortex server`) and a real device (`cortex client`) on loopback.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile, mkdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  STARTUP_TIMEOUT_MS, cortexBin, ensureBuilt, repoRoot, serverEnv, stopProcess,
} from '../lib/cortex.mjs';

const SHARED = 'interop-shared-token-0123456789';
// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64');

async function until(check, what, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (let pause = 20; ; pause = Math.min(500, pause * 2)) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pause));
  }
}

describe('TypeScript SDK client through the agent server', { timeout: 600_000 }, () => {
  let serverHome;
  let deviceHome;
  let server;
  let device;
  let client;
  let serverLog = '';

  before(async () => {
    await ensureBuilt();
    serverHome = await mkdtemp(path.join(os.tmpdir(), 'cortex-server-'));
    deviceHome = await mkdtemp(path.join(os.tmpdir(), 'cortex-device-'));
    await writeFile(path.join(serverHome, 'machines.json'),
      JSON.stringify({ machines: { 'interop-box': { platform: 'linux', description: 'interop device' } } }));
    const env = { ...serverEnv(process.env), CORTEX_HOME: serverHome, CORTEX_CLIENT_TOKEN: SHARED };
    server = spawn(cortexBin, ['server', '--webhook-port=0', '--hub-port=0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    server.stderr.on('data', (d) => { serverLog += d; });
    const serverFile = path.join(serverHome, 'data', 'server.json');
    await until(() => existsSync(serverFile), `the agent server (log: ${serverLog})`, STARTUP_TIMEOUT_MS);
    const { webhook_port: webhookPort, hub_port: hubPort } = JSON.parse(await readFile(serverFile, 'utf8'));
    const token = (await readFile(path.join(serverHome, 'config', 'webhook-token'), 'utf8')).trim();
    device = spawn(cortexBin, ['client', '--server', `ws://127.0.0.1:${hubPort}`, '--name', 'interop-box'], {
      env: { ...serverEnv(process.env), CORTEX_HOME: deviceHome, CORTEX_CLIENT_TOKEN: SHARED },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await until(async () => {
      const response = await fetch(`http://127.0.0.1:${webhookPort}/webhook/devices`, { headers: { 'x-cortex-token': token } });
      const body = await response.json();
      return body.result.devices.some((d) => d.name === 'interop-box' && d.online);
    }, 'the device to connect');
    const transport = new StdioClientTransport({
      command: cortexBin,
      args: ['mcp', '--bundles', 'core'],
      cwd: repoRoot,
      env: { ...serverEnv(getDefaultEnvironment()), CORTEX_HOME: serverHome },
      stderr: 'inherit',
    });
    client = new Client({ name: 'cortex-interop', version: '0.0.0' });
    await client.connect(transport, { timeout: STARTUP_TIMEOUT_MS });
  });

  after(async () => {
    await client?.close();
    await stopProcess(device);
    await stopProcess(server);
    for (const dir of [serverHome, deviceHome]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('tools/list: remote_bash lists the registered device', async () => {
    const { tools } = await client.listTools();
    const bash = tools.find((t) => t.name === 'remote_bash');
    assert.match(bash.description, /interop-box \(linux\): interop device/);
  });

  test('remote_bash runs on the device, structured content matching its schema', async () => {
    const result = await client.callTool({
      name: 'remote_bash',
      arguments: { device: 'interop-box', command: 'echo "from $(hostname)"; exit 4' },
    });
    assert.equal(result.isError, false, JSON.stringify(result));
    assert.equal(result.structuredContent.exit_code, 4);
    assert.match(result.structuredContent.output.text, /^from /);
  });

  test('remote_read returns an image as MCP image content', async () => {
    const dir = path.join(deviceHome, 'pictures');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'dot.png');
    await writeFile(file, PNG);
    const result = await client.callTool({ name: 'remote_read', arguments: { device: 'interop-box', file_path: file } });
    assert.equal(result.isError, false, JSON.stringify(result));
    assert.equal(result.structuredContent.kind, 'image');
    const image = result.content.find((c) => c.type === 'image');
    assert.equal(image.mimeType, 'image/png');
    assert.deepEqual(Buffer.from(image.data, 'base64'), PNG);
  });
});
