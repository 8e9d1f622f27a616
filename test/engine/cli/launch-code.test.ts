// The admin token never leaves the engine in a URL: `arena serve --open` and its printed link carry a one-time code
// (real child process, a stand-in xdg-open that records its argv), which the page trades once for the token over a
// POST; a second use and an expired code fail.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAUNCH_CODE_PATH } from '../../../engine/contract/admin.js';
import { createManualClock } from '../../../engine/core/clock.js';
import { LAUNCH_CODE_TTL_MS } from '../../../engine/http/launch-codes.js';
import { startTestServer } from '../../support/server.js';

const root = path.resolve(import.meta.dirname, '../../..');
const cli = path.join(root, 'bin', 'arena.js');
let dir: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(root, 'dist', 'engine', 'cli', 'index.js')))
    throw new Error('dist/ is missing: run `npm run build` before these tests');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-launch-'));
  // A stand-in browser opener: records the argv it was started with (what `ps` shows any local user).
  fs.mkdirSync(path.join(dir, 'bin'));
  for (const name of ['xdg-open', 'open']) {
    fs.writeFileSync(path.join(dir, 'bin', name), `#!/bin/sh\nprintf '%s\\n' "$0" "$@" > "${path.join(dir, 'opened.txt')}"\n`, {
      mode: 0o755,
    });
  }
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const exchange = (url: string, code: string, origin?: string) =>
  fetch(`${url}${LAUNCH_CODE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
    body: JSON.stringify({ code }),
  });

function serve(args: string[], openerDir = path.join(dir, 'bin')) {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', ...args], {
    env: { ...process.env, PATH: `${openerDir}${path.delimiter}${process.env.PATH ?? ''}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  readline.createInterface({ input: child.stdout }).on('line', (line) => lines.push(line));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const waitFor = async (test: () => boolean, what: string) => {
    const deadline = Date.now() + 20_000;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stdout: ${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { child, lines, exited, waitFor, stderr: () => stderr };
}

describe.runIf(process.platform !== 'win32')('arena serve --open', () => {
  it('opens a link with a one-time code, never the token, and the code works exactly once', async () => {
    const dataDir = path.join(dir, 'data-open');
    const s = serve(['--json', '--open', '--data-dir', dataDir]);
    try {
      await s.waitFor(() => s.lines.length > 0, 'the listening line');
      const ready = JSON.parse(s.lines[0] as string) as { url: string; token: string };
      const opened = path.join(dir, 'opened.txt');
      await s.waitFor(() => fs.existsSync(opened) && fs.readFileSync(opened, 'utf8').includes('#code='), 'the browser to be opened');
      const argv = fs.readFileSync(opened, 'utf8').trim().split('\n');
      expect(argv[1]).toMatch(new RegExp(`^${ready.url.replace(/[.]/g, '\\.')}/#code=[A-Za-z0-9_-]{32}$`));
      expect(argv.join(' ')).not.toContain(ready.token);
      const code = (argv[1] as string).split('#code=')[1] as string;

      // A foreign page cannot trade it (Origin check), and nothing is used up by that attempt.
      expect((await exchange(ready.url, code, 'http://evil.example')).status).toBe(403);
      const first = await exchange(ready.url, code);
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe('no-store');
      expect(await first.json()).toEqual({ token: ready.token });
      const second = await exchange(ready.url, code);
      expect(second.status).toBe(401);
      expect(await second.json()).toMatchObject({ code: 'UNAUTHORIZED' });
      expect((await exchange(ready.url, 'made-up-code')).status).toBe(401);

      // The token is nowhere in the data directory either.
      for (const file of fs.readdirSync(dataDir, { recursive: true }) as string[]) {
        const full = path.join(dataDir, file);
        if (fs.statSync(full).isFile()) expect(fs.readFileSync(full).toString('latin1').includes(ready.token), file).toBe(false);
      }
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  }, 40_000);

  it('prints a one-time link in human mode and never prints, logs or exposes the token', async () => {
    const s = serve(['--data-dir', path.join(dir, 'data-print'), '--log-level', 'debug']);
    try {
      await s.waitFor(() => s.lines.some((l) => l.includes('#code=')), 'the printed link');
      const link = (s.lines.find((l) => l.includes('#code=')) as string).trim();
      const [url, code] = link.split('/#code=') as [string, string];
      const res = await exchange(url, code);
      expect(res.status).toBe(200);
      const { token } = (await res.json()) as { token: string };
      // An admin call with the engine logging at debug level: the log never holds the credential.
      expect((await fetch(`${url}/admin/api/v1/overview`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
      const output = `${s.lines.join('\n')}\n${s.stderr()}`;
      expect(output).toContain('"level"');
      expect(output).not.toContain(token);
      expect(s.lines.join('\n')).not.toContain(token);
      expect(s.lines.join('\n')).not.toContain('token=');
      // What `ps` and /proc show other local users about the engine process.
      if (process.platform === 'linux') {
        expect(fs.readFileSync(`/proc/${s.child.pid}/cmdline`).toString('latin1')).not.toContain(token);
        expect(fs.readFileSync(`/proc/${s.child.pid}/environ`).toString('latin1')).not.toContain(token);
      }
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  }, 40_000);
});

describe.runIf(process.platform !== 'win32')('arena serve without a terminal or a browser', () => {
  it('--json carries a one-time UI link, and SIGUSR2 prints a fresh one that works', async () => {
    const s = serve(['--json', '--data-dir', path.join(dir, 'data-json-link')]);
    try {
      await s.waitFor(() => s.lines.length > 0, 'the listening line');
      const ready = JSON.parse(s.lines[0] as string) as { url: string; token: string; ui: string };
      expect(ready.ui).toMatch(new RegExp(`^${ready.url.replace(/[.]/g, '\\.')}/#code=[A-Za-z0-9_-]{32}$`));
      expect(ready.ui).not.toContain(ready.token);
      s.child.kill('SIGUSR2');
      await s.waitFor(() => s.lines.some((l) => l.includes('"ui-link"')), 'the renewed link');
      const renewed = JSON.parse(s.lines.find((l) => l.includes('"ui-link"')) as string) as { ui: string };
      expect(renewed.ui).not.toBe(ready.ui);
      expect((await exchange(ready.url, renewed.ui.split('#code=')[1] as string)).status).toBe(200);
      expect((await exchange(ready.url, ready.ui.split('#code=')[1] as string)).status).toBe(200);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  }, 40_000);

  it('--open with an opener that fails (no browser) says so and prints the link', async () => {
    const failing = path.join(dir, 'failing-bin');
    fs.mkdirSync(failing, { recursive: true });
    for (const name of ['xdg-open', 'open']) fs.writeFileSync(path.join(failing, name), '#!/bin/sh\nexit 3\n', { mode: 0o755 });
    const s = serve(['--open', '--data-dir', path.join(dir, 'data-no-browser')], failing);
    try {
      await s.waitFor(() => s.stderr().includes('Could not open a browser'), 'the failure message');
      expect(s.stderr()).toMatch(/exited with code 3\); open this link yourself:\n {2}http:\/\/127\.0\.0\.1:\d+\/#code=/);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  }, 40_000);
});

describe('launch codes', () => {
  it('expire', async () => {
    const clock = createManualClock(1_000_000);
    const server = await startTestServer({ clock });
    try {
      const code = server.engine.issueLaunchCode();
      const fresh = server.engine.issueLaunchCode();
      clock.advance(LAUNCH_CODE_TTL_MS + 1);
      expect((await exchange(server.url, code)).status).toBe(401);
      expect((await exchange(server.url, fresh)).status).toBe(401);
      const late = server.engine.issueLaunchCode();
      clock.advance(LAUNCH_CODE_TTL_MS - 1);
      expect((await exchange(server.url, late)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('refuses malformed exchanges with a 400 and never answers with the token', async () => {
    const server = await startTestServer();
    try {
      for (const body of ['{}', '{"code":""}', '{"code":1}', 'not json']) {
        const res = await fetch(`${server.url}${LAUNCH_CODE_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        expect(res.status, body).toBe(400);
        expect(await res.text()).not.toContain(server.token);
      }
    } finally {
      await server.close();
    }
  });
});
