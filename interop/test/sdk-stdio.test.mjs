// The official TypeScript MCP SDK client talking to cortex over stdio.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  STARTUP_TIMEOUT_MS, cortexBin, ensureBuilt, repoRoot, serverArgs, serverEnv, toolError,
} from '../lib/cortex.mjs';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

function assertInvalidArgument(result) {
  assert.equal(result.isError, true, JSON.stringify(result));
  const { structured, text } = toolError(result);
  // Errors travel as text only: structuredContent describes success and would fail the client's
  // output-schema check.
  assert.equal(structured, undefined);
  assert.equal(text.code, 'INVALID_ARGUMENT');
  assert.equal(typeof text.message, 'string');
  return text;
}

describe('TypeScript SDK client over stdio', { timeout: 600_000 }, () => {
  let client;
  let transport;
  let stderr = '';

  before(async () => {
    await ensureBuilt();
    transport = new StdioClientTransport({
      command: cortexBin,
      args: serverArgs,
      cwd: repoRoot,
      env: serverEnv(getDefaultEnvironment()),
      stderr: 'pipe',
    });
    transport.stderr.on('data', (d) => { stderr += d; });
    client = new Client({ name: 'cortex-interop', version: '0.0.0' });
    await client.connect(transport, { timeout: STARTUP_TIMEOUT_MS });
  });

  after(async () => {
    await client?.close();
  });

  test('initialize: server identifies as cortex', () => {
    const info = client.getServerVersion();
    assert.equal(info.name, 'cortex');
    assert.equal(typeof info.version, 'string');
    assert.ok(client.getServerCapabilities().tools, 'tools capability advertised');
  });

  test('tools/list: both tools, explicit annotations, outputSchema, closed inputSchema', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of ['current_time', 'cortex_health']) {
      const tool = byName[name];
      assert.ok(tool, `${name} listed (got ${Object.keys(byName).join(', ')})`);
      for (const hint of HINTS) {
        assert.equal(typeof tool.annotations?.[hint], 'boolean', `${name}.annotations.${hint}`);
      }
      assert.equal(tool.outputSchema?.type, 'object', `${name}.outputSchema`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.inputSchema.additionalProperties, false, `${name}.inputSchema.additionalProperties`);
    }
  });

  test('tools/call current_time {timezone: Asia/Tokyo}', async () => {
    const result = await client.callTool({ name: 'current_time', arguments: { timezone: 'Asia/Tokyo' } });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const sc = result.structuredContent;
    assert.equal(sc.timezone, 'Asia/Tokyo');
    assert.equal(sc.utc_offset, '+09:00');
    assert.ok(Number.isInteger(sc.unix_timestamp));
    assert.ok(Math.abs(sc.unix_timestamp - Date.now() / 1000) < 300, 'timestamp is now');
    assert.match(sc.local, /\+09:00$/);
    assert.match(sc.utc, /Z$/);
    assert.equal(typeof sc.day_of_week, 'string');
    assert.equal(result.content[0].type, 'text');
    assert.deepEqual(JSON.parse(result.content[0].text), sc);
  });

  test('tools/call cortex_health {}', async () => {
    const result = await client.callTool({ name: 'cortex_health', arguments: {} });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.equal(result.structuredContent.status, 'ok');
    assert.equal(result.structuredContent.service, 'cortex');
    assert.equal(typeof result.structuredContent.version, 'string');
    assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  });

  test('tools/call current_time {timezone: Mars/Base} is an INVALID_ARGUMENT tool error', async () => {
    assertInvalidArgument(await client.callTool({ name: 'current_time', arguments: { timezone: 'Mars/Base' } }));
  });

  test('tools/call current_time {timezone: 5} (wrong type) is INVALID_ARGUMENT', async () => {
    assertInvalidArgument(await client.callTool({ name: 'current_time', arguments: { timezone: 5 } }));
  });

  test('tools/call current_time {bogus: 1} (unknown field) is INVALID_ARGUMENT', async () => {
    assertInvalidArgument(await client.callTool({ name: 'current_time', arguments: { bogus: 1 } }));
  });

  test('tools/call of an unknown tool is an error naming the tool', async () => {
    const name = 'no_such_tool';
    let outcome;
    try {
      outcome = await client.callTool({ name, arguments: {} });
    } catch (e) {
      outcome = e;
    }
    // MCP: an unknown tool is a protocol error, -32602; Cortex names the tool and the tools it
    // serves, with the stable code in error.data.
    assert.ok(outcome instanceof McpError, `expected McpError, got ${JSON.stringify(outcome)}`);
    assert.equal(outcome.code, -32602);
    assert.match(outcome.message, new RegExp(name));
    assert.match(outcome.message, /current_time/);
    assert.doesNotMatch(outcome.message, /invalid_tool_name/);
    assert.equal(outcome.data?.code, 'UNKNOWN_TOOL');
  });

  test('Client.callTool() surfaces a tool error as an isError result', async () => {
    const result = await client.callTool({ name: 'current_time', arguments: { timezone: 'Mars/Base' } });
    assertInvalidArgument(result);
  });

  test('server wrote only diagnostics (no JSON-RPC) to stderr', () => {
    assert.doesNotMatch(stderr, /"jsonrpc"/);
  });
});
