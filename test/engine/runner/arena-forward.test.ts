// arena-forward, the sandbox's endpoint forwarder (engine/runner/native/arena-forward.c), built from the source here:
// on its own in this process's network namespace (listening before it returns, byte-exact both ways, half-closes
// passed on, many connections at once, out of descriptors and back, a closed side closing the other, an address it
// cannot bind named with exit 125, none of the caller's streams kept), then inside the real sandbox against socat,
// the fallback, and as an unprivileged uid.
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentManifestSchema } from '../../../engine/contract/manifest.js';
import { launchAgent } from '../../../engine/runner/launch.js';
import { sandboxSupport, setSandboxSupportForTests } from '../../../engine/runner/sandbox.js';
import { buildForwarder } from '../../../scripts/build-native.mjs';

const linux = process.platform === 'linux';
let root: string;
let binary: string;
let buildProblem: string | null = 'not built';

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-forward-'));
  fs.chmodSync(root, 0o755);
  binary = path.join(root, 'bin', 'arena-forward');
  if (linux) buildProblem = buildForwarder(binary);
  if (!buildProblem) fs.chmodSync(path.dirname(binary), 0o755);
});

afterAll(() => {
  killServing(root);
  fs.rmSync(root, { recursive: true, force: true });
});

afterEach(() => setSandboxSupportForTests(undefined));

/** Pids of this test's forwarders still running (host view), with `dir` in their command line when given. */
function servingProcesses(dir = ''): number[] {
  const pids: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.startsWith(binary) && cmdline.includes(dir)) pids.push(Number(pid));
    } catch {
      // gone already
    }
  }
  return pids;
}

/** Ends the forwarders started with a socket under `dir` (outside a sandbox they outlive the command that started them). */
function killServing(dir: string): void {
  for (const pid of servingProcesses(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The engine's side: a Unix socket server; `echo` sends back what it read and ends once the reader has ended. */
async function unixServer(file: string, onSocket: (socket: net.Socket) => void): Promise<net.Server> {
  const server = net.createServer({ allowHalfOpen: true }, onSocket);
  await new Promise<void>((resolve) => server.listen(file, resolve));
  return server;
}
const echo = (socket: net.Socket) => socket.pipe(socket);

/** One exchange through the forwarder: sends `payload`, half-closes, returns all it got back. */
function exchange(port: number, payload: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const got: Buffer[] = [];
    socket.on('data', (d) => got.push(d));
    socket.on('end', () => {
      socket.end();
      resolve(Buffer.concat(got));
    });
    socket.on('error', reject);
    socket.end(payload);
  });
}

function startForwarder(args: string[]): SpawnSyncReturns<string> {
  return spawnSync(binary, args, { encoding: 'utf8', timeout: 10_000 });
}

describe.runIf(linux)('arena-forward on its own', () => {
  it('builds here (CI has a C compiler: without one the sandbox falls back to socat)', () => {
    expect(buildProblem).toBeNull();
  });

  it('listens before it returns, and carries bytes exactly both ways with half-closes passed on', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'a-'));
    const socket = path.join(dir, 'f0.sock');
    const server = await unixServer(socket, echo);
    const port = await freePort();
    try {
      const started = startForwarder(['127.0.0.1', String(port), socket]);
      expect(started.status).toBe(0);
      // No retry and no wait: the listener is there once the command has returned.
      const payload = crypto.randomBytes(3 * 1024 * 1024 + 17);
      const back = await exchange(port, payload);
      expect(back.length).toBe(payload.length);
      expect(crypto.createHash('sha256').update(back).digest('hex')).toBe(crypto.createHash('sha256').update(payload).digest('hex'));
      // 64 connections at once, each its own answer.
      const lines = Array.from({ length: 64 }, (_, i) => Buffer.from(`connection ${i}\n`));
      const answers = await Promise.all(lines.map((line) => exchange(port, line)));
      expect(answers.map(String)).toEqual(lines.map(String));
    } finally {
      killServing(dir);
      server.close();
    }
  });

  it('closes the agent’s connection when the engine closes its side, and the engine’s when the agent resets', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'b-'));
    const socket = path.join(dir, 'f0.sock');
    const engineSide: net.Socket[] = [];
    const closed: string[] = [];
    const server = await unixServer(socket, (s) => {
      engineSide.push(s);
      // The end of what the forwarder sends (a half-open socket here: its own side stays open until it ends it).
      s.on('end', () => closed.push('engine side'));
      s.on('error', () => {});
    });
    const port = await freePort();
    try {
      expect(startForwarder(['127.0.0.1', String(port), socket]).status).toBe(0);
      const first = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => server.once('connection', resolve));
      const ended = new Promise((resolve) => first.on('close', resolve));
      engineSide[0]?.destroy();
      await ended; // the agent sees its connection end
      const second = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => server.once('connection', resolve));
      const engineEnded = new Promise((resolve) => engineSide[1]?.once('end', resolve));
      second.resetAndDestroy();
      await engineEnded;
      // The first engine side was destroyed by the test itself; only the second saw the forwarder end it.
      expect(closed).toEqual(['engine side']);
    } finally {
      killServing(dir);
      server.close();
    }
  });

  it('goes on serving after running out of descriptors, and keeps none of its caller’s streams', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'c-'));
    const socket = path.join(dir, 'f0.sock');
    const held: net.Socket[] = [];
    const server = await unixServer(socket, (s) => held.push(s));
    const port = await freePort();
    try {
      // 16 descriptors: a handful of pairs fill them; the rest wait in the listen queue until a pair closes.
      const child = spawn('/bin/sh', ['-c', `ulimit -n 16 && exec "$0" 127.0.0.1 ${port} "$1"`, binary, socket], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      // 'close' needs every stream of the command closed: the serving process it leaves behind holds none of them.
      const status = await new Promise((resolve) => child.on('close', resolve));
      expect(status).toBe(0);
      const clients = Array.from({ length: 12 }, () => net.connect(port, '127.0.0.1').on('error', () => {}));
      await waitFor(() => held.length >= 4);
      const pairsAtLimit = held.length;
      expect(pairsAtLimit).toBeLessThan(12);
      for (const c of clients) c.destroy();
      for (const s of held) s.destroy();
      // Descriptors freed: a new exchange is served again.
      const server2Echo = await exchangeWhenServed(port, held);
      expect(server2Echo).toBe(true);
    } finally {
      killServing(dir);
      server.close();
    }
  });

  it('names an address it cannot use and exits 125, and refuses a bad command line', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      const busy = startForwarder(['127.0.0.1', String(port), path.join(root, 'x.sock')]);
      expect(busy.status).toBe(125);
      expect(busy.stderr).toMatch(new RegExp(`could not bind 127\\.0\\.0\\.1:${port} \\(Address already in use\\)`));
      expect(startForwarder(['127.0.0.1', '70000', 'x.sock']).status).toBe(125);
      expect(startForwarder(['not-an-address', '80', 'x.sock']).stderr).toContain('could not use the address not-an-address:80');
      expect(startForwarder(['127.0.0.1', '80']).stderr).toContain('usage: arena-forward');
    } finally {
      taken.close();
    }
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Echoes the next connection the engine side sees, then exchanges a line through the forwarder: whether it came back. */
async function exchangeWhenServed(port: number, held: net.Socket[]): Promise<boolean> {
  const before = held.length;
  const answer = exchange(port, Buffer.from('after the limit\n'));
  await waitFor(() => held.length > before);
  const latest = held.at(-1) as net.Socket;
  latest.pipe(latest);
  return String(await answer) === 'after the limit\n';
}

const sandboxed = linux && sandboxSupport().bwrap != null;

describe.runIf(sandboxed)('arena-forward in the sandbox, beside socat', () => {
  // In the sandbox: 2 MB up and its digest back, then 20 connections at once, through the seat's arena endpoint.
  const probe = (port: number) => `const net = require('net'); const crypto = require('crypto');
    const talk = (payload) => new Promise((resolve) => { const s = net.connect({ port: ${port}, host: '127.0.0.1', allowHalfOpen: true });
      const got = []; s.on('data', (d) => got.push(d)); s.on('end', () => { s.end(); resolve(Buffer.concat(got)); });
      s.on('error', (e) => resolve(Buffer.from(e.code))); s.end(payload); });
    (async () => { const big = Buffer.alloc(2 * 1024 * 1024, 7); const digest = String(await talk(big));
      const many = await Promise.all(Array.from({ length: 20 }, (_, i) => talk('line ' + i)));
      console.log(JSON.stringify({ digest, many: many.map(String) })); })();`;

  async function runProbe(tool: 'arena-forward' | 'socat', runAs?: { uid: number; gid: number }) {
    // The engine's end: answers a big upload with its digest, a short one with itself.
    const server = net.createServer({ allowHalfOpen: true }, (socket) => {
      const got: Buffer[] = [];
      socket.on('data', (d) => got.push(d));
      socket.on('end', () => {
        const all = Buffer.concat(got);
        socket.end(all.length > 1000 ? crypto.createHash('sha256').update(all).digest('hex') : all);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    // Only the tool under test is offered: a launch that used the other would be refused.
    setSandboxSupportForTests(undefined);
    setSandboxSupportForTests({
      ...sandboxSupport(),
      ...(tool === 'arena-forward' ? { arenaForward: binary, socat: null } : { arenaForward: null }),
    });
    try {
      const workspaceRoot = fs.mkdtempSync(path.join(root, 'work-'));
      fs.chmodSync(workspaceRoot, 0o755);
      const manifest = AgentManifestSchema.parse({
        id: 'forward-probe',
        name: 'Forward probe',
        framework: 'node',
        protocol: 'specarena',
        entrypoint: { command: ['node', '-e', probe(port)] },
      });
      const agentDir = fs.mkdtempSync(path.join(root, 'agent-'));
      fs.chmodSync(agentDir, 0o755);
      const run = await launchAgent({
        manifest,
        manifestDir: agentDir,
        workspaceRoot,
        hostEnv: { PATH: process.env.PATH },
        arenaEndpoints: [`127.0.0.1:${port}`],
        limits: { timeoutMs: 60_000 },
        ...(runAs ? { runAs } : {}),
      }).result;
      if (!run.stdout) throw new Error(`no probe output with ${tool}: ${run.termination} ${run.detail ?? ''} ${run.stderr}`);
      return { run, out: JSON.parse(run.stdout) as { digest?: string; many?: string[] } };
    } finally {
      server.close();
    }
  }

  const expected = {
    digest: crypto
      .createHash('sha256')
      .update(Buffer.alloc(2 * 1024 * 1024, 7))
      .digest('hex'),
    many: Array.from({ length: 20 }, (_, i) => `line ${i}`),
  };

  it('serves the seat’s arena endpoint as socat does, and dies with the sandbox', async () => {
    for (const tool of ['arena-forward', 'socat'] as const) {
      const { run, out } = await runProbe(tool);
      expect({ tool, termination: run.termination, ...out }).toEqual({ tool, termination: 'exited', ...expected });
    }
    // The serving process outlives the command that started it, but not the sandbox: none is left once the run is over.
    expect(servingProcesses()).toEqual([]);
  });

  it('does so for an agent run as an unprivileged uid', async () => {
    const { run, out } = await runProbe('arena-forward', { uid: 65534, gid: 65534 });
    expect({ termination: run.termination, ...out }).toEqual({ termination: 'exited', ...expected });
    expect(servingProcesses()).toEqual([]);
  });
});
