// The OS sandbox against real hostile agents (test/fixtures/agents/hostile): each attack on the host — the engine's
// database and RNG key, $HOME, writes outside the workspace, another process's environment, memory, signals and
// ptrace, a local port that is not the arena, processes left behind — is tried from inside the real bubblewrap
// sandbox and must fail, also as an unprivileged user; the same attacks without the sandbox succeed, so the suite can
// tell. The fail-closed path: no sandbox here → refusal naming the fix; a trusted folder → runs, recorded unsandboxed.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentManifestSchema } from '../../../engine/contract/manifest.js';
import { type LaunchOptions, launchAgent } from '../../../engine/runner/launch.js';
import { probeBwrap, sandboxSupport, setSandboxSupportForTests } from '../../../engine/runner/sandbox.js';
import { stillRunning, watchProcesses } from '../../support/agent-processes.js';

const HOSTILE = path.resolve(import.meta.dirname, '../../fixtures/agents/hostile');
const ATTACKS = [
  'readDatabase',
  'readRngKey',
  'listHome',
  'writeOutside',
  'readOpponentEnviron',
  'readEngineEnviron',
  'readEngineMemory',
  'signalOthers',
  'ptraceOthers',
  'connectLocalPort',
] as const;
type Results = Record<string, { ok: boolean; detail: string }>;

const linuxWithSandbox = process.platform === 'linux' && sandboxSupport().bwrap != null;

let root: string;
let dataDir: string;
let home: string;
let writeDir: string;
let port: number;
let server: net.Server;
const sacrificial: ChildProcess[] = [];

/** A process standing in for the opponent or the engine: a secret in its environment, alive until the suite ends. */
function standIn(name: 'VICTIM_SECRET' | 'ENGINE_SECRET'): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
    env: { PATH: process.env.PATH, [name]: `${name.toLowerCase()}-value-4242` },
    stdio: 'ignore',
  });
  sacrificial.push(child);
  return child;
}

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-hostile-'));
  // The setpriv run needs every folder on the way to its workspace traversable by that user.
  fs.chmodSync(root, 0o755);
  dataDir = path.join(root, 'data');
  fs.mkdirSync(path.join(dataDir, 'secrets'), { recursive: true });
  const db = new Database(path.join(dataDir, 'arena.sqlite'));
  db.exec("CREATE TABLE game_state (answer TEXT); INSERT INTO game_state VALUES ('the intersection');");
  db.close();
  fs.writeFileSync(path.join(dataDir, 'secrets/rng.key'), 'rng-key-bytes');
  home = path.join(root, 'home');
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(home, 'notes.txt'), 'private');
  writeDir = path.join(root, 'elsewhere');
  fs.mkdirSync(writeDir);
  fs.chmodSync(writeDir, 0o777);
  server = net.createServer((socket) => socket.end('not the arena'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(() => {
  server?.close();
  for (const child of sacrificial) child.kill('SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

afterEach(() => setSandboxSupportForTests(undefined));

function hostileManifest(names: readonly string[], hints: Record<string, string>) {
  return AgentManifestSchema.parse({
    id: 'hostile',
    name: 'Hostile',
    framework: 'node',
    protocol: 'specarena',
    entrypoint: { command: ['node', 'attacks.mjs', ...names], env: hints },
  });
}

/** Runs attacks.mjs; returns its results, the run, and every host process it had (seen by host pid). */
async function attack(
  names: readonly string[],
  targets: { victim: ChildProcess; engine: ChildProcess },
  extra: Partial<LaunchOptions> = {},
) {
  const hints = {
    HINT_DATA_DIR: dataDir,
    HINT_HOME: home,
    HINT_WRITE_DIR: writeDir,
    HINT_PIDS: String(targets.victim.pid),
    HINT_ENGINE_PID: String(targets.engine.pid),
    HINT_PORT: String(port),
  };
  const workspaceRoot = path.join(dataDir, 'tournaments', 't-hostile', 'work');
  fs.mkdirSync(workspaceRoot, { recursive: true });
  for (const dir of [path.join(dataDir, 'tournaments'), path.join(dataDir, 'tournaments', 't-hostile'), workspaceRoot, dataDir])
    fs.chmodSync(dir, 0o755);
  const handle = launchAgent({
    manifest: hostileManifest(names, hints),
    manifestDir: HOSTILE,
    workspaceRoot,
    hostEnv: { PATH: process.env.PATH, HOME: home },
    privatePaths: [dataDir],
    limits: { timeoutMs: 30_000 },
    ...extra,
  });
  const watch = watchProcesses(() => `ARENA_WORKSPACE=${handle.workspace}`);
  const run = await handle.result;
  const seen = watch.stop();
  const line = /ATTACKS (.*)/.exec(run.stdout)?.[1];
  if (!line) throw new Error(`no attack report: ${run.termination} ${run.detail ?? ''} ${run.stderr}`);
  return { results: JSON.parse(line) as Results, run, seen };
}

/** Every attack blocked; a failure names the attack and what it got. */
function expectBlocked(results: Results): void {
  const verdicts = ATTACKS.map((name) => `${name}: ${results[name]?.ok === false ? 'blocked' : `WORKED (${results[name]?.detail})`}`);
  expect(verdicts).toEqual(ATTACKS.map((name) => `${name}: blocked`));
}

describe.runIf(linuxWithSandbox)('hostile agents in the bubblewrap sandbox', () => {
  it('blocks every attack on the host, the opponent and the engine, and leaves nothing running', async () => {
    const victim = standIn('VICTIM_SECRET');
    const engine = standIn('ENGINE_SECRET');
    const { results, run, seen } = await attack([...ATTACKS, 'escape'], { victim, engine });
    expectBlocked(results);
    expect(run.termination).toBe('exited');
    expect(run.exitCode).toBe(0);
    expect(run.isolation).toMatchObject({ method: 'bubblewrap', filesystem: 'sandbox', pid: 'namespace', network: 'none', trusted: false });
    // The attacks really ran: the escape left two processes behind inside, next to the agent and the sandbox's own.
    expect(results.escape?.ok).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect(stillRunning(seen)).toEqual([]);
    expect(alive(victim) && alive(engine)).toBe(true);
    expect(fs.readdirSync(writeDir)).toEqual([]);
    expect(fs.existsSync(path.join(HOSTILE, 'hostile-was-here'))).toBe(false);
    expect(fs.readdirSync(path.dirname(run.workspace))).toEqual([path.basename(run.workspace)]);
  });

  it('the same attacks succeed without the sandbox, so the suite can tell', async () => {
    const victim = standIn('VICTIM_SECRET');
    const engine = standIn('ENGINE_SECRET');
    const { results, run } = await attack(ATTACKS, { victim, engine }, { trusted: true, network: 'loopback' });
    expect(run.isolation).toMatchObject({ method: 'none', filesystem: 'host', pid: 'host', trusted: true });
    const worked = ATTACKS.filter((name) => results[name]?.ok);
    // ptrace and memory reads need the same user or root; everything else works for any user on a shared machine.
    const needsPrivilege = process.getuid?.() === 0 ? [] : ['readEngineMemory', 'ptraceOthers', 'readEngineEnviron', 'readOpponentEnviron'];
    expect(worked).toEqual(ATTACKS.filter((name) => !needsPrivilege.includes(name)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(victim)).toBe(false);
    fs.rmSync(path.join(writeDir, 'hostile-was-here'), { force: true });
  });

  it.runIf(process.getuid?.() === 0)('blocks the key attacks for an unprivileged user too (setpriv to nobody)', async () => {
    const victim = standIn('VICTIM_SECRET');
    const engine = standIn('ENGINE_SECRET');
    // A copy of the fixture where nobody can read it, wherever the checkout lives.
    const copy = path.join(root, 'hostile-copy');
    fs.cpSync(HOSTILE, copy, { recursive: true });
    const { results, run, seen } = await attack(
      [...ATTACKS, 'escape'],
      { victim, engine },
      { runAs: { uid: 65534, gid: 65534 }, manifestDir: copy },
    );
    expect(run.isolation).toMatchObject({ method: 'bubblewrap', filesystem: 'sandbox', pid: 'namespace' });
    expect(run.stdout).toContain('UID 65534\n');
    expect(run.exitCode).toBe(0);
    expectBlocked(results);
    expect(stillRunning(seen)).toEqual([]);
    expect(alive(victim) && alive(engine)).toBe(true);
    expect(fs.readdirSync(writeDir)).toEqual([]);
  });

  /** A host the probe's manifest allows (standing for a model server), listening on loopback. */
  async function allowedHost(): Promise<{ server: net.Server; port: number }> {
    const server = net.createServer((socket) => socket.end('allowed model server'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.address() as net.AddressInfo).port };
  }

  const netProbe = (probe: string, allowedPort: number) =>
    AgentManifestSchema.parse({
      id: 'net-probe',
      name: 'Net probe',
      framework: 'node',
      protocol: 'specarena',
      entrypoint: { command: ['node', '-e', probe] },
      network: { allow: [`127.0.0.1:${allowedPort}`] },
    });

  it('reaches exactly its arena endpoints and the hosts its manifest allows', async () => {
    const { server: other, port: allowedPort } = await allowedHost();
    const probe = `const net = require('net');
      const hit = (port) => new Promise((r) => { const s = net.connect(port, '127.0.0.1'); s.setTimeout(2000, () => { s.destroy(); r('timeout'); });
        s.on('data', (d) => { s.destroy(); r(String(d)); }); s.on('error', (e) => r(e.code)); });
      Promise.all([hit(${port}), hit(${allowedPort})]).then(([arena, allowed]) => console.log(JSON.stringify({ arena, allowed })));`;
    try {
      const manifest = netProbe(probe, allowedPort);
      const base = { manifest, manifestDir: HOSTILE, workspaceRoot: root, hostEnv: { PATH: process.env.PATH } };
      const arena = await launchAgent({ ...base, arenaEndpoints: [`127.0.0.1:${port}`] }).result;
      expect(JSON.parse(arena.stdout)).toEqual({ arena: 'not the arena', allowed: 'allowed model server' });
      expect(arena.isolation).toMatchObject({ network: 'endpoints', endpoints: [`127.0.0.1:${port}`, `127.0.0.1:${allowedPort}`] });
      const alone = await launchAgent(base).result;
      expect(JSON.parse(alone.stdout)).toEqual({ arena: 'ECONNREFUSED', allowed: 'allowed model server' });
    } finally {
      other.close();
    }
  });

  it('hands a stream to an endpoint this process serves straight to its server, the others still over TCP', async () => {
    const { server: other, port: allowedPort } = await allowedHost();
    // Listens nowhere: the arena's answer can only come through the handed-over stream.
    const inProcess = net.createServer((socket) => socket.end(`served in-process (${socket.remoteAddress ?? 'unix'})`));
    const asked: string[] = [];
    const probe = `const net = require('net');
      const hit = (port) => new Promise((r) => { const s = net.connect(port, '127.0.0.1'); s.setTimeout(2000, () => { s.destroy(); r('timeout'); });
        let got = ''; s.on('data', (d) => { got += d; }); s.on('end', () => r(got)); s.on('error', (e) => r(e.code)); });
      (async () => { const arena = [await hit(${port}), await hit(${port})]; console.log(JSON.stringify({ arena, allowed: await hit(${allowedPort}) })); })();`;
    try {
      const manifest = netProbe(probe, allowedPort);
      const run = await launchAgent({
        manifest,
        manifestDir: HOSTILE,
        workspaceRoot: root,
        hostEnv: { PATH: process.env.PATH },
        arenaEndpoints: [`127.0.0.1:${port}`],
        localEndpoints: (endpoint) => {
          asked.push(endpoint);
          return endpoint === `127.0.0.1:${port}` ? (socket) => inProcess.emit('connection', socket) : null;
        },
      }).result;
      expect(JSON.parse(run.stdout)).toEqual({
        arena: ['served in-process (unix)', 'served in-process (unix)'],
        allowed: 'allowed model server',
      });
      expect(asked.sort()).toEqual([`127.0.0.1:${allowedPort}`, `127.0.0.1:${port}`].sort());
      expect(run.isolation).toMatchObject({ network: 'endpoints', endpoints: [`127.0.0.1:${port}`, `127.0.0.1:${allowedPort}`] });
    } finally {
      other.close();
    }
  });
});

describe('fail closed', () => {
  const manifest = hostileManifest(['listHome'], { HINT_HOME: '/nonexistent' });

  it('names the fix when bubblewrap is missing or cannot create namespaces', () => {
    expect(probeBwrap(null, '/bin/true').sandboxProblem).toMatch(/apt-get install bubblewrap.*--trust-agent-dir/);
    // A bwrap that fails its probe (here: a program that always fails) is reported as namespaces being unavailable.
    const broken = probeBwrap('/bin/false', '/bin/true');
    expect(broken.bwrap).toBeNull();
    expect(broken.sandboxProblem).toMatch(/user namespaces.*sysctl.*--trust-agent-dir/);
  });

  it('refuses to launch an untrusted agent where the sandbox cannot start, and runs a trusted one unsandboxed', async () => {
    setSandboxSupportForTests({ ...sandboxSupport(), ...probeBwrap(null, '/bin/true') });
    const refused = await launchAgent({ manifest, manifestDir: HOSTILE, workspaceRoot: root, hostEnv: { PATH: process.env.PATH } }).result;
    expect(refused.termination).toBe('spawn_error');
    expect(refused.harnessError).toBe(true);
    expect(refused.pid).toBeNull();
    expect(refused.detail).toMatch(/bubblewrap.*not installed.*apt-get install bubblewrap/);
    const trusted = await launchAgent({
      manifest,
      manifestDir: HOSTILE,
      workspaceRoot: root,
      hostEnv: { PATH: process.env.PATH },
      trusted: true,
    }).result;
    expect(trusted.exitCode).toBe(0);
    expect(trusted.isolation).toMatchObject({ method: 'none', filesystem: 'host', pid: 'host', trusted: true });
  });
});
