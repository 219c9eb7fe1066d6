// HTTP transport guards, probed with plain fetch / node:http against 127.0.0.1.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { ensureBuilt, startHttpServer, stopProcess } from '../lib/cortex.mjs';

const HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};

const initialize = (id = 1) => JSON.stringify({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'http-guards', version: '0' },
  },
});

/** POST with node:http, which (unlike fetch) lets us choose the Host header. */
function rawPost(port, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => { text += d; });
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error('request timed out')));
    req.end(body);
  });
}

describe('HTTP guards', { timeout: 600_000 }, () => {
  let server;
  const post = (headers, body) =>
    fetch(server.url, { method: 'POST', headers: { ...HEADERS, ...headers }, body, signal: AbortSignal.timeout(30_000) });

  before(async () => {
    await ensureBuilt();
    server = await startHttpServer();
  });

  after(async () => {
    await stopProcess(server?.child);
  });

  test('control: a plain initialize is accepted (200) and opens a session', async () => {
    const res = await post({}, initialize());
    assert.equal(res.status, 200);
    assert.ok(res.headers.get('mcp-session-id'), 'Mcp-Session-Id header');
    await res.arrayBuffer();
  });

  test('control: a same-origin Origin header is accepted', async () => {
    const res = await post({ Origin: `http://127.0.0.1:${server.port}` }, initialize());
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  });

  test('a foreign Origin is refused with 403', async () => {
    const res = await post({ Origin: 'http://evil.example' }, initialize());
    assert.equal(res.status, 403);
    assert.equal(res.headers.get('mcp-session-id'), null, 'no session created');
    await res.arrayBuffer();
  });

  test('control: node:http with the real Host header is accepted', async () => {
    const res = await rawPost(server.port, { ...HEADERS, Host: `127.0.0.1:${server.port}` }, initialize());
    assert.equal(res.status, 200, res.text);
  });

  test('a foreign Host header (DNS rebinding) is refused with 403', async () => {
    const res = await rawPost(server.port, { ...HEADERS, Host: `evil.example:${server.port}` }, initialize());
    assert.equal(res.status, 403, res.text);
    assert.equal(res.headers['mcp-session-id'], undefined, 'no session created');
  });

  test('a JSON-RPC batch body is refused with 400', async () => {
    const res = await post({}, `[${initialize(1)},${initialize(2)}]`);
    assert.equal(res.status, 400);
    await res.arrayBuffer();
  });

  test('an unknown Mcp-Session-Id is answered with 404', async () => {
    const res = await post(
      { 'Mcp-Session-Id': 'no-such-session' },
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    );
    assert.equal(res.status, 404);
    await res.arrayBuffer();
  });

  test('the 404 for an unknown session has a JSON-RPC error body, not a serialized exception', async () => {
    const res = await post(
      { 'Mcp-Session-Id': 'no-such-session' },
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    );
    assert.equal(res.status, 404);
    const text = await res.text();
    assert.doesNotMatch(text, /stackTrace|\.java/);
    const body = JSON.parse(text);
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(typeof body.error?.code, 'number');
  });
});
