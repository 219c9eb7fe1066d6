// Shared helpers for the interop tests: where the launcher is, how to start cortex over stdio or
// HTTP, and small utilities. Lives outside test/ so that `node --test test/` does not run it.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import path from 'node:path';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const interopDir = fileURLToPath(new URL('..', import.meta.url));
export const cortexBin = path.join(repoRoot, 'bin', 'cortex');
export const serverArgs = ['mcp', '--bundles', 'core,evidence,workflows'];

/** Generous: the first launch may build the jar and prepare the start-up cache. */
export const STARTUP_TIMEOUT_MS = 180_000;

const execFileP = promisify(execFile);

/** Builds the jar if stale (bin/cortex --version does that) so that later launches are quick. */
export async function ensureBuilt() {
  const { stdout } = await execFileP(cortexBin, ['--version'], {
    timeout: 600_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout.trim();
}

/**
 * The environment an MCP host would typically give a stdio server: the SDK's minimal default
 * environment, plus the variables the launcher uses to find a JDK if the developer set them.
 */
export function serverEnv(defaultEnv) {
  const env = { ...defaultEnv };
  for (const k of ['JAVA_HOME', 'CORTEX_JAVA', 'CORTEX_AOT', 'MAVEN_HOME', 'M2_HOME', 'MAVEN_OPTS']) {
    if (process.env[k] !== undefined) env[k] = process.env[k];
  }
  // Tests also check every result against the tool's output schema.
  env.CORTEX_JAVA_OPTS = `${process.env.CORTEX_JAVA_OPTS ?? ''} -Dcortex.checkOutputs=true`.trim();
  return env;
}

/** Rejects after ms with a message, unless the promise settles first. */
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Waits for a child to exit; resolves with {code, signal}. */
export function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return once(child, 'exit').then(([code, signal]) => ({ code, signal }));
}

/** SIGTERM the child (by its own pid), then SIGKILL if it has not exited after graceMs. */
export async function stopProcess(child, graceMs = 10_000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const done = exited(child);
  child.kill('SIGTERM');
  try {
    await withTimeout(done, graceMs, `process ${child.pid} to exit after SIGTERM`);
  } catch {
    child.kill('SIGKILL');
    await done;
  }
}

/**
 * Starts `bin/cortex mcp --bundles core,evidence,workflows --http 0` and waits for the line
 * `cortex: serving MCP at http://127.0.0.1:PORT/mcp ...` on stderr.
 * Returns { child, url, port, stderr() }.
 */
export async function startHttpServer() {
  const child = spawn(cortexBin, [...serverArgs, '--http', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stdout.resume();
  const lines = createInterface({ input: child.stderr });
  const ready = new Promise((resolve, reject) => {
    lines.on('line', (line) => {
      stderr += line + '\n';
      const m = /cortex: serving MCP at (http:\/\/127\.0\.0\.1:(\d+)\/mcp)\b/.exec(line);
      if (m) resolve({ url: m[1], port: Number(m[2]) });
    });
    child.on('exit', (code, signal) =>
      reject(new Error(`cortex exited (code ${code}, signal ${signal}) before serving:\n${stderr}`)),
    );
    child.on('error', reject);
  });
  try {
    const { url, port } = await withTimeout(ready, STARTUP_TIMEOUT_MS, 'cortex HTTP server to start');
    return { child, url, port, stderr: () => stderr };
  } catch (e) {
    await stopProcess(child);
    throw e;
  }
}

/** Parses the JSON body of a tool error result and returns its error object. */
export function toolError(result) {
  const fromText = JSON.parse(result.content[0].text);
  return { structured: result.structuredContent, text: fromText.error };
}

/** The tools `cortex mcp --bundles core,evidence,workflows` serves, sorted. */
export const EXPECTED_TOOLS = [
  'agent', 'agent_stop', 'check', 'cortex_add_evidence', 'cortex_create_claim', 'cortex_get_context', 'cortex_health',
  'cortex_review', 'cortex_track_assumption', 'cortex_update_assumption', 'current_time',
  'remote_bash', 'remote_edit', 'remote_glob', 'remote_grep', 'remote_job', 'remote_job_kill', 'remote_read',
  'remote_write', 'run', 'runs_cancel', 'runs_list', 'runs_show', 'show', 'status',
];
