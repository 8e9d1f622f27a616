// Watcher processes over the WebSocket keep their agent online, against a real engine on 127.0.0.1 (--tls listener):
// - the public kit's own OpenClaw watcher (vendored unchanged under test/conformance/clawarena/integrations/openclaw/,
//   standard library only) with CLAWARENA_TRANSPORT=ws; only the OpenClaw binary it shells out to is a stub;
// - a small stand-in (test/fixtures/clawarena/ws_watcher.py) that, after its start-up peek and heartbeat, only keeps
//   the feed open and pings: it shows the feed alone is presence (the kit's watcher also sends REST heartbeats).
// While either runs, its agent survives the lobby's sweep long past the 90 s grace; once stopped, the same sweep drops it.
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
const KIT_WATCHER = path.resolve(import.meta.dirname, '../../../conformance/clawarena/integrations/openclaw/watcher.py');
const OPENCLAW_STUB = path.resolve(import.meta.dirname, '../../../fixtures/clawarena/openclaw-stub');
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

it('a stand-in that only keeps the feed open and pings keeps the agent online; offline after it stops', { timeout: 60_000 }, async () => {
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

it("the kit's own watcher (CLAWARENA_TRANSPORT=ws) keeps its agent online, and offline once stopped", { timeout: 120_000 }, async () => {
  const tls = server.engine.tls as { url: string; certPath: string };
  const service = server.engine.clawarena;
  const queued = (id: number) => server.engine.store.clawarena.queued(id);
  const lastSeen = (id: number) => server.engine.store.clawarena.agent(id)?.lastSeenAt ?? null;
  const watched = service.createAgent({ name: 'kit-ws-watcher', preferredGameType: 'mafia' });
  const other = service.createAgent({ name: 'kit-ws-other', preferredGameType: 'mafia' });
  const state = path.join(home, 'kit');
  fs.mkdirSync(state, { mode: 0o700 });
  fs.writeFileSync(path.join(state, 'token'), `${watched.token}\n`, { mode: 0o600 });
  const stubLog = path.join(home, 'openclaw-calls.jsonl');

  const proc = spawn('python3', [KIT_WATCHER], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      CLAWARENA_BASE: `${tls.url}/api/v1`,
      CLAWARENA_HOME: state,
      CLAWARENA_TRANSPORT: 'ws',
      CLAWARENA_OPENCLAW_BIN: OPENCLAW_STUB,
      OPENCLAW_STUB_LOG: stubLog,
      SSL_CERT_FILE: tls.certPath,
    },
  });
  child = proc;
  let output = '';
  proc.stdout.on('data', (d) => {
    output += String(d);
  });
  proc.stderr.on('data', (d) => {
    output += String(d);
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  async function until(what: string, ok: () => boolean, ms: number) {
    const end = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > end) throw new Error(`${what}; watcher output: ${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  // Start-up: a peek (which queues the agent) and a status report, then the feed; after the feed's auth_ok it peeks
  // and reports once more (the ready marker is written on a report the server accepted).
  const stateFile = path.join(state, 'watcher_state.json');
  const onFeed = () => {
    try {
      return Boolean(JSON.parse(fs.readFileSync(stateFile, 'utf8')).last_ws_message_at);
    } catch {
      return false;
    }
  };
  await until('the watcher opened its feed', onFeed, 30_000);
  await until('the watcher reported on the feed', () => fs.existsSync(path.join(state, 'watcher.ready')), 30_000);
  await new Promise((r) => setTimeout(r, 1000));
  expect(queued(watched.agent.agentId)?.gameType).toBe('mafia');
  // Far past the 90 s grace. The watcher's next REST heartbeat is 30 s away, so the presence that comes back on the
  // new time first is the open feed's own refresh (every 25 s).
  clock.advance(200_000);
  const jumped = clock.now();
  await until('presence refreshed after the jump', () => (lastSeen(watched.agent.agentId) ?? 0) >= jumped, 45_000);
  const c = new ValidatingClient(`${server.url}/api/v1`);
  expect((await c.poll({ wait: 0 }, other.token)).body.status).toBe('waiting');
  expect(queued(watched.agent.agentId), 'online: kept through the sweep').toBeDefined();
  expect(proc.exitCode).toBeNull();

  // The watcher never exits on its own; it is stopped by its process id.
  proc.kill('SIGTERM');
  await exited;
  child = null;
  clock.advance(200_000);
  expect((await c.poll({ wait: 0 }, other.token)).body.status).toBe('waiting');
  expect(queued(watched.agent.agentId), 'offline: dropped by the same sweep').toBeUndefined();
  // No turn came, so the watcher never needed a model.
  expect(fs.existsSync(stubLog) ? fs.readFileSync(stubLog, 'utf8') : '').toBe('');
});
