// Issue 48: an open page finds a restarted `arena serve` without a new link. Real child processes on one data folder:
// the engine records where it listens (an owner-only file, never the token), takes the same port again after being
// killed or stopped, and still accepts the browser session cookie it issued (only its hash is stored); a forged or
// expired cookie is refused after the restart; when another program holds the port, the engine says so and prints
// a new link that works.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PREFIX, ADMIN_SESSION_PATH, LAUNCH_CODE_PATH } from '../../../engine/contract/admin.js';
import { openStore } from '../../../engine/db/store.js';
import { PORT_FILE_NAME } from '../../../engine/runtime/port-file.js';
import { scaled } from '../../support/slowness.js';

const root = path.resolve(import.meta.dirname, '../../..');
const cli = path.join(root, 'bin', 'arena.js');
let dir: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(root, 'dist', 'engine', 'cli', 'index.js')))
    throw new Error('dist/ is missing: run `npm run build` before these tests');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-restart-'));
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface Served {
  child: ChildProcess;
  lines: string[];
  exited: Promise<unknown>;
  /** Resolves with the first line that passes `test`. */
  line(test: (line: string) => boolean, what: string): Promise<string>;
}

const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

function serve(args: string[]): Served {
  const child = spawn(process.execPath, [cli, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (l) => {
    lines.push(l);
    for (const wake of waiters.splice(0)) wake();
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise((resolve) => child.once('exit', resolve)).then(() => running.delete(child));
  const line = (test: (l: string) => boolean, what: string) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what}; stdout: ${lines.join('\n')}; stderr: ${stderr}`)), scaled(30_000));
      const check = () => {
        const found = lines.find(test);
        if (found !== undefined) {
          clearTimeout(timer);
          resolve(found);
        } else if (child.exitCode !== null) {
          clearTimeout(timer);
          reject(new Error(`arena serve exited (${child.exitCode}) before ${what}; stderr: ${stderr}`));
        } else waiters.push(check);
      };
      check();
    });
  return { child, lines, exited, line };
}

interface Ready {
  url: string;
  token: string;
  ui: string;
  previousPortTaken?: number;
}

async function serveJson(dataDir: string): Promise<Served & { ready: Ready }> {
  const s = serve(['--json', '--data-dir', dataDir]);
  const ready = JSON.parse(await s.line((l) => l.includes('"listening"'), 'listening line')) as Ready;
  return { ...s, ready };
}

/** The page's trade of its one-time link: the `name=value` of the session cookie the engine sets. */
async function tradeLink(ui: string): Promise<string> {
  const [origin, code] = ui.split('/#code=') as [string, string];
  const res = await fetch(`${origin}${LAUNCH_CODE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ code }),
  });
  expect(res.status).toBe(200);
  return (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
}

const overviewWith = (url: string, cookie: string) => fetch(`${url}${ADMIN_PREFIX}/overview`, { headers: { cookie } });
const signedIn = async (url: string, cookie: string) =>
  ((await (await fetch(`${url}${ADMIN_SESSION_PATH}`, { headers: { cookie } })).json()) as { signed_in: boolean }).signed_in;

/** Every byte under the data folder, for "this secret is stored nowhere" checks. */
function folderBytes(dataDir: string): string {
  let all = '';
  for (const file of fs.readdirSync(dataDir, { recursive: true }) as string[]) {
    const full = path.join(dataDir, file);
    if (fs.statSync(full).isFile()) all += fs.readFileSync(full).toString('latin1');
  }
  return all;
}

describe.runIf(process.platform !== 'win32')('arena serve restarted on the same data folder', () => {
  it('takes the same port after SIGKILL and after a clean stop, and the browser session outlives both', async () => {
    const dataDir = path.join(dir, 'data-restart');
    const first = await serveJson(dataDir);
    const cookie = await tradeLink(first.ready.ui);
    expect((await overviewWith(first.ready.url, cookie)).status).toBe(200);

    // Where it listens, for the owner only, without the token.
    const portFile = path.join(dataDir, PORT_FILE_NAME);
    expect(fs.statSync(portFile).mode & 0o777).toBe(0o600);
    const record = JSON.parse(fs.readFileSync(portFile, 'utf8')) as { port: number; host: string; pid: number };
    expect(record).toEqual({ host: '127.0.0.1', port: Number(new URL(first.ready.url).port), pid: first.child.pid });
    expect(fs.readFileSync(portFile, 'utf8')).not.toContain(first.ready.token);
    // The session is stored as a hash: the cookie's value is in no file, and nor is the token.
    const value = cookie.split('=')[1] as string;
    const stored = folderBytes(dataDir);
    expect(stored).not.toContain(value);
    expect(stored).not.toContain(first.ready.token);

    first.child.kill('SIGKILL');
    await first.exited;
    const second = await serveJson(dataDir);
    expect(second.ready.url).toBe(first.ready.url);
    expect(second.ready.previousPortTaken).toBeUndefined();
    expect(second.ready.token).not.toBe(first.ready.token);
    expect((await overviewWith(second.ready.url, cookie)).status).toBe(200);
    // The old token died with its process: only the session cookie carries over.
    const oldToken = await fetch(`${second.ready.url}${ADMIN_PREFIX}/overview`, {
      headers: { authorization: `Bearer ${first.ready.token}` },
    });
    expect(oldToken.status).toBe(401);

    second.child.kill('SIGTERM');
    await second.exited;
    expect(fs.existsSync(portFile)).toBe(false);
    const third = await serveJson(dataDir);
    try {
      expect(third.ready.url).toBe(first.ready.url);
      expect((await overviewWith(third.ready.url, cookie)).status).toBe(200);
      expect(await signedIn(third.ready.url, cookie)).toBe(true);
    } finally {
      third.child.kill('SIGTERM');
      await third.exited;
    }
  }, 120_000);

  it('refuses a forged cookie and an expired session after the restart', async () => {
    const dataDir = path.join(dir, 'data-refused');
    const first = await serveJson(dataDir);
    const cookie = await tradeLink(first.ready.ui);
    const kept = await tradeLink(first.ready.ui.replace(/#code=.*/, `#code=${await newCode(first)}`));
    first.child.kill('SIGKILL');
    await first.exited;

    // The first session's idle end passes while the engine is down (the stored row, by the cookie's hash).
    const store = openStore({ file: path.join(dataDir, 'arena.sqlite') });
    try {
      store.adminSessions.extend(
        createHash('sha256')
          .update(cookie.split('=')[1] as string)
          .digest('hex'),
        Date.now() - 1000,
      );
    } finally {
      store.close();
    }

    const second = await serveJson(dataDir);
    try {
      const { url } = second.ready;
      expect(url).toBe(first.ready.url);
      const name = cookie.split('=')[0] as string;
      const forged = `${name}=${randomBytes(32).toString('base64url')}`;
      expect((await overviewWith(url, forged)).status).toBe(401);
      expect(await signedIn(url, forged)).toBe(false);
      expect((await overviewWith(url, cookie)).status).toBe(401);
      expect(await signedIn(url, cookie)).toBe(false);
      // The other session of the same browser is still live: the refusals above are the cookies', not the restart's.
      expect((await overviewWith(url, kept)).status).toBe(200);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 120_000);

  it('says so and prints a new link that works when another program holds the port', async () => {
    const dataDir = path.join(dir, 'data-taken');
    const first = await serveJson(dataDir);
    const port = Number(new URL(first.ready.url).port);
    first.child.kill('SIGTERM');
    await first.exited;
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    const human = serve(['--data-dir', dataDir]);
    let newPort = 0;
    try {
      const notice = await human.line((l) => l.includes('is taken by another program'), 'the taken-port notice');
      expect(notice).toContain(`Port ${port}`);
      const link = (await human.line((l) => l.includes('#code='), 'the new link')).trim();
      newPort = Number(new URL(link).port);
      expect(newPort).not.toBe(port);
      const cookie = await tradeLink(link);
      expect((await overviewWith(new URL(link).origin, cookie)).status).toBe(200);
      const record = JSON.parse(fs.readFileSync(path.join(dataDir, PORT_FILE_NAME), 'utf8')) as { port: number };
      expect(record.port).toBe(newPort);
    } finally {
      human.child.kill('SIGTERM');
      await human.exited;
      await new Promise((resolve) => squatter.close(resolve));
    }
    // The port it got is the one the next start prefers.
    const next = await serveJson(dataDir);
    try {
      expect(next.ready.previousPortTaken).toBeUndefined();
      expect(Number(new URL(next.ready.url).port)).toBe(newPort);
    } finally {
      next.child.kill('SIGTERM');
      await next.exited;
    }
  }, 120_000);
});

/** A fresh one-time code from a running `--json` serve (SIGUSR2). */
async function newCode(s: Served & { ready: Ready }): Promise<string> {
  const before = s.lines.length;
  s.child.kill('SIGUSR2');
  const line = await s.line((l) => s.lines.indexOf(l) >= before && l.includes('"ui-link"'), 'a renewed link');
  return (JSON.parse(line) as { ui: string }).ui.split('#code=')[1] as string;
}
