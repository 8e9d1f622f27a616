// Starts the built engine headless (`arena serve --json --port 0`) on a temporary data folder and hands its URL and
// admin token to the specs through the environment; the returned function is the teardown.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scaled } from '../../support/slowness.js';

export const ENGINE_URL_ENV = 'ARENA_E2E_URL';
export const ENGINE_TOKEN_ENV = 'ARENA_E2E_TOKEN';
/** The engine's data folder, for specs that run a second engine (`arena run`) on it. */
export const ENGINE_DATA_DIR_ENV = 'ARENA_E2E_DATA_DIR';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** Widened on a busy machine, where the engine's start alone can take longer than on a quiet one. */
const START_TIMEOUT_MS = scaled(20_000);

function firstJsonLine(child: ChildProcess): Promise<{ event: string; url: string; token: string }> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(
      () => reject(new Error(`arena serve did not start within ${START_TIMEOUT_MS} ms\n${stderr}`)),
      START_TIMEOUT_MS,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(stdout.slice(0, newline)));
      } catch (error) {
        reject(new Error(`arena serve printed something other than JSON: ${stdout.slice(0, newline)} (${(error as Error).message})`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`arena serve exited with code ${code} before it was ready\n${stderr}`));
    });
  });
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  for (const built of ['dist/engine/cli/index.js', 'dist/renderer/index.html']) {
    if (!fs.existsSync(path.join(ROOT, built))) throw new Error(`${built} is missing: run "npm run build" before the end-to-end tests.`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-e2e-'));
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'arena.js'), 'serve', '--json', '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ARENA_DATA_DIR: '' },
  });
  let ready: { event: string; url: string; token: string };
  try {
    ready = await firstJsonLine(child);
  } catch (error) {
    child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  if (ready.event !== 'listening') throw new Error(`unexpected first event from arena serve: ${JSON.stringify(ready)}`);
  // Workers start after global setup and inherit this environment.
  process.env[ENGINE_URL_ENV] = ready.url;
  process.env[ENGINE_TOKEN_ENV] = ready.token;
  process.env[ENGINE_DATA_DIR_ENV] = dataDir;

  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

export function engineFromEnv(): { url: string; token: string } {
  const url = process.env[ENGINE_URL_ENV];
  const token = process.env[ENGINE_TOKEN_ENV];
  if (!url || !token)
    throw new Error('The engine URL is not set: run the specs through playwright.config.ts (its global setup starts the engine).');
  return { url, token };
}
