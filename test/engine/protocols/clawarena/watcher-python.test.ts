// A watcher process over the WebSocket keeps its agent online: a Python standard-library stand-in for the OpenClaw
// watcher's CLAWARENA_TRANSPORT=ws path (test/fixtures/clawarena/ws_watcher.py: https base with the loopback
// certificate, token file, peek + heartbeat, then /ws/watcher/ with the watcher's portless Origin) runs against a
// real engine on 127.0.0.1. While it runs, its agent survives the lobby's sweep long past the 90 s grace; once it has
// stopped, the same sweep drops it.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createManualClock } from '../../../../engine/core/clock.js';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { ValidatingClient, validationFailures } from './helpers.js';

const SCRIPT = path.resolve(import.meta.dirname, '../../../fixtures/clawarena/ws_watcher.py');
const clock = createManualClock(Date.UTC(2026, 0, 1));
let server: TestServer;
let home: string;
let child: ChildProcessWithoutNullStreams | null = null;

beforeAll(async () => {
  server = await startTestServer({ tls: true, clock });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'ws-watcher-'));
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await server.close();
  fs.rmSync(home, { recursive: true, force: true });
  expect(validationFailures).toEqual([]);
});

type Frame = { type: string; data?: Record<string, unknown>; [k: string]: unknown };

it('keeps the agent online while the watcher runs, and lets it go offline after', { timeout: 60_000 }, async () => {
  const tls = server.engine.tls as { url: string; certPath: string };
  const service = server.engine.clawarena;
  const queued = (id: number) => server.engine.store.clawarena.queued(id);
  // Mafia needs six players, so the two agents here are swept but never seated.
  const watched = service.createAgent({ name: 'py-ws-watcher', preferredGameType: 'mafia' });
  const other = service.createAgent({ name: 'py-ws-other', preferredGameType: 'mafia' });
  fs.writeFileSync(path.join(home, 'token'), `${watched.token}\n`, { mode: 0o600 });

  const proc = spawn('python3', [SCRIPT], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      CLAWARENA_BASE: `${tls.url}/api/v1`,
      CLAWARENA_HOME: home,
      CLAWARENA_TRANSPORT: 'ws',
      SSL_CERT_FILE: tls.certPath,
      WATCHER_PING_SECONDS: '0.2',
    },
  });
  child = proc;
  let stderr = '';
  proc.stderr.on('data', (d) => {
    stderr += String(d);
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const frames: Frame[] = [];
  const waiting: (() => void)[] = [];
  createInterface({ input: proc.stdout }).on('line', (line) => {
    frames.push(JSON.parse(line) as Frame);
    for (const wake of waiting.splice(0)) wake();
  });
  async function next(where: (f: Frame) => boolean, label: string): Promise<Frame> {
    const until = Date.now() + 20_000;
    for (;;) {
      const i = frames.findIndex(where);
      if (i >= 0) return frames.splice(i, 1)[0] as Frame;
      if (Date.now() > until) throw new Error(`no ${label}; frames ${JSON.stringify(frames)}; stderr ${stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  expect((await next((f) => f.type === 'peek', 'peek')).status).toBe('waiting');
  expect((await next((f) => f.type === 'auth_ok', 'auth_ok')).agent_id).toBe(watched.agent.agentId);
  expect((await next((f) => f.type === 'watcher_status', 'watcher_status')).data?.status).toBe('waiting');
  expect(queued(watched.agent.agentId)?.gameType).toBe('mafia');

  // Far past the 90 s grace; the watcher only keeps its feed open and pings. Two pongs after the jump: a ping the
  // engine handled on the new time.
  clock.advance(200_000);
  frames.splice(0);
  await next((f) => f.type === 'pong', 'pong');
  await next((f) => f.type === 'pong', 'second pong');
  const c = new ValidatingClient(`${server.url}/api/v1`);
  expect((await c.poll({ wait: 0 }, other.token)).body.status).toBe('waiting');
  expect(queued(watched.agent.agentId), 'online: kept through the sweep').toBeDefined();

  proc.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(frames.some((f) => f.type === 'stopped')).toBe(true);
  child = null;

  clock.advance(200_000);
  expect((await c.poll({ wait: 0 }, other.token)).body.status).toBe('waiting');
  expect(queued(watched.agent.agentId), 'offline: dropped by the same sweep').toBeUndefined();
  expect(queued(other.agent.agentId)).toBeDefined();
});
