// The official TypeScript MCP SDK client talking to cortex over streamable HTTP (loopback only).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EXPECTED_TOOLS, ensureBuilt, startHttpServer, stopProcess } from '../lib/cortex.mjs';

describe('TypeScript SDK client over streamable HTTP', { timeout: 600_000 }, () => {
  let server;
  let client;
  let transport;

  before(async () => {
    await ensureBuilt();
    server = await startHttpServer();
    assert.equal(new URL(server.url).hostname, '127.0.0.1', 'loopback only');
    transport = new StreamableHTTPClientTransport(new URL(server.url));
    client = new Client({ name: 'cortex-interop', version: '0.0.0' });
    await client.connect(transport, { timeout: 60_000 });
  });

  after(async () => {
    try {
      if (transport?.sessionId) await transport.terminateSession().catch(() => {});
      await client?.close();
    } finally {
      await stopProcess(server?.child);
    }
  });

  test('initialize: server identifies as cortex and assigns a session', () => {
    assert.equal(client.getServerVersion().name, 'cortex');
    assert.equal(typeof transport.sessionId, 'string');
    assert.ok(transport.sessionId.length > 0);
  });

  test('tools/list', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, EXPECTED_TOOLS);
    for (const t of tools) {
      assert.equal(t.inputSchema.additionalProperties, false, t.name);
      assert.equal(t.outputSchema?.type, 'object', t.name);
    }
  });

  test('tools/call current_time {timezone: Asia/Tokyo}', async () => {
    const result = await client.callTool({ name: 'current_time', arguments: { timezone: 'Asia/Tokyo' } });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.equal(result.structuredContent.timezone, 'Asia/Tokyo');
    assert.equal(result.structuredContent.utc_offset, '+09:00');
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  });

  test('tools/call cortex_health {}', async () => {
    const result = await client.callTool({ name: 'cortex_health', arguments: {} });
    assert.equal(result.structuredContent.status, 'ok');
    assert.equal(result.structuredContent.service, 'cortex');
  });
});
