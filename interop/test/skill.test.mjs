// The save-workflow skill through the official TypeScript SDK client: prompts/list, prompts/get,
// resources/list and resources/read, each description stamped with the Cortex version.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { STARTUP_TIMEOUT_MS, cortexBin, ensureBuilt, repoRoot, serverArgs, serverEnv } from '../lib/cortex.mjs';

const RESOURCES = [
  'cortex://skill/SKILL.md',
  'cortex://skill/references/activity_kinds.md',
  'cortex://skill/references/example_workflow.md',
  'cortex://skill/references/manifest_schema.md',
  'cortex://skill/references/trace_interpretation.md',
];

describe('the save-workflow skill through the TypeScript SDK client', { timeout: 300_000 }, () => {
  let client;
  let version;

  before(async () => {
    version = (await ensureBuilt()).replace(/^cortex /, '');
    const home = mkdtempSync(join(tmpdir(), 'cortex-interop-skill-'));
    const transport = new StdioClientTransport({
      command: cortexBin,
      args: serverArgs,
      env: { ...serverEnv(getDefaultEnvironment()), CORTEX_HOME: home },
      stderr: 'pipe',
    });
    client = new Client({ name: 'cortex-interop-skill', version: '0.0.0' });
    await client.connect(transport, { timeout: STARTUP_TIMEOUT_MS });
  });

  after(async () => {
    await client?.close();
  });

  test('the server declares prompts and resources', () => {
    const capabilities = client.getServerCapabilities();
    assert.ok(capabilities.prompts, JSON.stringify(capabilities));
    assert.ok(capabilities.resources, JSON.stringify(capabilities));
  });

  test('prompts/list and prompts/get give the skill body', async () => {
    const { prompts } = await client.listPrompts();
    const prompt = prompts.find((p) => p.name === 'cortex-save-workflow');
    assert.ok(prompt, JSON.stringify(prompts));
    assert.match(prompt.description, new RegExp(`Cortex ${version.replace(/\./g, '\\.')}`));
    const got = await client.getPrompt({ name: 'cortex-save-workflow' });
    assert.equal(got.messages.length, 1);
    assert.equal(got.messages[0].role, 'user');
    assert.match(got.messages[0].content.text, /# Save what you just did as a Cortex workflow/);
    const skill = await client.readResource({ uri: 'cortex://skill/SKILL.md' });
    assert.equal(skill.contents[0].text, got.messages[0].content.text);
  });

  test('resources/list names the skill and its four references, stamped', async () => {
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri).sort(), [...RESOURCES].sort());
    for (const resource of resources) {
      assert.ok(resource.description.endsWith(`(Cortex ${version}).`), resource.description);
      assert.equal(resource.mimeType, 'text/markdown');
    }
  });

  test('resources/read gives each text; the generated ones match the docs', async () => {
    for (const uri of RESOURCES) {
      const { contents } = await client.readResource({ uri });
      assert.equal(contents[0].uri, uri);
      assert.ok(contents[0].text.length > 200, uri);
    }
    const kinds = await client.readResource({ uri: RESOURCES[1] });
    assert.equal(kinds.contents[0].text, readFileSync(join(repoRoot, 'docs', 'activity-kinds.md'), 'utf8'));
    const schema = await client.readResource({ uri: RESOURCES[3] });
    assert.equal(schema.contents[0].text, readFileSync(join(repoRoot, 'docs', 'manifest-schema.md'), 'utf8'));
  });
});
