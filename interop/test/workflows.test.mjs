// Workflows through the official TypeScript SDK client: the human's confirmation through
// elicitation, live progress, and cancellation that suppresses the answer while the run completes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { STARTUP_TIMEOUT_MS, cortexBin, ensureBuilt, serverArgs, serverEnv } from '../lib/cortex.mjs';

const PIPELINE = `name: pipeline
version: 1.0.0
description: Three steps, one of them slow enough to watch.
parameters:
  pause: {type: number, default: 0.2}
capabilities: [shell]
steps:
  - id: greet
    kind: shell
    with: {argv: [echo, hello]}
  - id: wait
    kind: shell
    with: {argv: [sleep, "\${{ .params.pause | tostring }}"]}
  - id: shout
    kind: transform
    with: {expression: '.steps.greet.stdout | ascii_upcase'}
`;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe('workflows through the TypeScript SDK client', { timeout: 600_000 }, () => {
  let client;
  let home;
  let workflow;
  // What the human answers to the next confirmation, and what the server asked.
  let reply = { action: 'accept', content: { approve: true } };
  const asked = [];

  before(async () => {
    await ensureBuilt();
    home = mkdtempSync(join(tmpdir(), 'cortex-interop-wf-'));
    workflow = join(home, 'pipeline.yaml');
    writeFileSync(workflow, PIPELINE);
    const transport = new StdioClientTransport({
      command: cortexBin,
      args: serverArgs,
      cwd: home,
      env: { ...serverEnv(getDefaultEnvironment()), CORTEX_HOME: join(home, 'home') },
      stderr: 'pipe',
    });
    client = new Client(
      { name: 'cortex-interop-workflows', version: '0.0.0' },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return reply;
    });
    await client.connect(transport, { timeout: STARTUP_TIMEOUT_MS });
  });

  after(async () => {
    await client?.close();
  });

  test('a declined confirmation runs nothing', async () => {
    reply = { action: 'decline' };
    try {
      const result = await client.callTool({ name: 'run', arguments: { workflow } });
      assert.equal(result.isError, true);
      const error = JSON.parse(result.content[0].text).error;
      assert.equal(error.code, 'CONSENT_DECLINED');
      assert.match(asked.at(-1).message, /workflow 'pipeline' 1\.0\.0/);
      assert.deepEqual(asked.at(-1).requestedSchema.required, ['approve']);
      const listed = await client.callTool({ name: 'runs_list', arguments: {} });
      assert.equal(listed.structuredContent.count, 0);
    } finally {
      reply = { action: 'accept', content: { approve: true } };
    }
  });

  test('run sends the plan, then one notification per step, before the result', async () => {
    const progress = [];
    const result = await client.callTool(
      { name: 'run', arguments: { workflow, params: { pause: 0.3 } } },
      undefined,
      { onprogress: (p) => progress.push(p), timeout: 120_000 },
    );
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const trace = result.structuredContent;
    assert.equal(trace.status, 'succeeded');
    assert.equal(trace.steps[2].output, 'HELLO\n');
    assert.equal(progress.length, 4, JSON.stringify(progress));
    assert.match(progress[0].message, /^plan: /);
    assert.deepEqual(progress.map((p) => p.progress), [0, 1, 2, 3]);
    assert.ok(progress.every((p) => p.total === 3));
    assert.match(progress[2].message, /'wait' succeeded/);
  });

  test('a cancelled run answers nothing, completes, and is listed', async () => {
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'run', arguments: { workflow, params: { pause: 1.5 } } },
      undefined,
      { signal: controller.signal, timeout: 120_000 },
    );
    await sleep(500);
    controller.abort('the user changed their mind');
    await assert.rejects(call);

    let run;
    for (let i = 0; i < 80; i++) {
      await sleep(250);
      const listed = await client.callTool({ name: 'runs_list', arguments: { limit: 5 } });
      // Newest first: the cancelled run follows the one of the previous test.
      assert.equal(listed.structuredContent.count, 2);
      run = listed.structuredContent.runs[0];
      if (run.status !== 'running') break;
    }
    assert.equal(run?.status, 'succeeded', 'the cancelled run completed');
    assert.ok(existsSync(join(home, 'home', 'runs', `${run.run_id}.json`)), 'its trace is on disk');
    const pong = await client.ping();
    assert.ok(pong, 'the server keeps serving');
  });
});
