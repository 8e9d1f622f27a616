// The CLI as a user runs it: a real child process of bin/arena.js (needs `npm run build`, which `npm test` runs first).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const cli = path.join(root, 'bin', 'arena.js');
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-cli-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

beforeAll(() => {
  if (!fs.existsSync(path.join(root, 'dist', 'engine', 'cli', 'index.js')))
    throw new Error('dist/ is missing: run `npm run build` before these tests');
});

function startServe(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, [cli, 'serve', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const rl = readline.createInterface({ input: child.stdout });
  rl.on('line', (line) => lines.push(line));
  const firstLine = new Promise<string>((resolve, reject) => {
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, firstLine, lines, exited };
}

describe('arena serve', () => {
  it('prints exactly one listening JSON line, serves on loopback, and shuts down gracefully on SIGTERM', async () => {
    const dataDir = tempDir();
    const serve = startServe(['--json', '--port', '0', '--data-dir', dataDir]);
    const ready = JSON.parse(await serve.firstLine) as { event: string; url: string; token: string };
    expect(ready.event).toBe('listening');
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await (await fetch(`${ready.url}/health`)).json()).toEqual({ status: 'ok' });
    const overview = await fetch(`${ready.url}/admin/api/v1/overview`, { headers: { authorization: `Bearer ${ready.token}` } });
    expect(overview.status).toBe(200);
    expect(serve.lines).toHaveLength(1);

    // An open SSE stream must not hold the shutdown up.
    const stream = await fetch(`${ready.url}/api/chat/ws/lobby`);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'arena.sqlite'))).toBe(true);
    expect((fs.statSync(path.join(dataDir, 'secrets', 'rng.key')).mode & 0o777).toString(8)).toBe('600');
  });

  it('takes the data directory from ARENA_DATA_DIR when --data-dir is absent', async () => {
    const dataDir = tempDir();
    const serve = startServe(['--json'], { ARENA_DATA_DIR: dataDir });
    JSON.parse(await serve.firstLine);
    serve.child.kill('SIGTERM');
    await serve.exited;
    expect(fs.existsSync(path.join(dataDir, 'arena.sqlite'))).toBe(true);
  });

  it.each([
    [['serve', '--port', 'abc'], /--port must be an integer/],
    [['serve', '--host', '0.0.0.0'], /--host must be a loopback address/],
    [['serve', '--bogus'], /unknown option --bogus/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['scoring'], /usage: arena scoring recompute/],
  ])('rejects %j with exit code 2 and an actionable message', (args, message) => {
    const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, ARENA_DATA_DIR: tempDir() } });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('recomputes scoring from the command line', () => {
    const result = spawnSync(process.execPath, [cli, 'scoring', 'recompute', '--json', '--data-dir', tempDir()], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ event: 'recomputed', games: 0 });
  });
});
