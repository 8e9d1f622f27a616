// Hostile seats in real tournament games (real engine, real sandboxes): spy-bot attacks the engine and its honest
// PSI opponent from inside its game, and every attack fails — the honest seat's games complete with the same scores
// as an all-honest run on the same seed, nobody is faulted, nothing the spy started is left running. A seat killed
// from outside its sandbox makes the attempt void (replayed), never the agent's fault. And where the sandbox cannot
// start, a run is refused naming the fix unless the agent folders are trusted (then recorded as unsandboxed).
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEngine, startEngine } from '../../../engine/app.js';
import { probeBwrap, sandboxSupport, setSandboxSupportForTests } from '../../../engine/runner/sandbox.js';
import { childrenOf, environHas, stillRunning, watchProcesses } from '../../support/agent-processes.js';
import { MILLIONAIRE, play, ROOT, tempDir } from '../tournaments/helpers.js';

const SPY = path.join(ROOT, 'test/fixtures/agents/hostile/agent.yaml');
const HONEST = path.join(ROOT, 'challenges/psi/agents/honest-exact/agent.yaml');
const linuxWithSandbox = process.platform === 'linux' && sandboxSupport().bwrap != null;

let dir: string;
let engine: RunningEngine;
beforeAll(async () => {
  dir = tempDir('arena-hostile-t-');
  engine = await startEngine({ dataDir: dir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
});
afterAll(async () => {
  await engine?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(() => setSandboxSupportForTests(undefined));

function psi(agents: Array<{ manifest: string; id: string }>) {
  return {
    name: 'hostile',
    challenge: 'psi',
    format: 'round-robin',
    games_per_pairing: 2,
    concurrency: 1,
    seed: 'hostile-1',
    agents,
    limits: { move_seconds: 10, game_seconds: 30 },
  };
}

describe.runIf(linuxWithSandbox)('hostile seats in tournament games', () => {
  it('spy-bot’s attacks all fail; the honest seat scores as in an all-honest run, unfaulted; nothing is left running', async () => {
    const watch = watchProcesses(() => 'ARENA_AGENT_ID=spy');
    const hostile = await play(
      engine,
      psi([
        { manifest: SPY, id: 'spy' },
        { manifest: HONEST, id: 'honest' },
      ]),
    );
    const seen = watch.stop();
    const baseline = await play(
      engine,
      psi([
        { manifest: HONEST, id: 'twin' },
        { manifest: HONEST, id: 'honest' },
      ]),
    );
    expect(hostile.outcome.status).toBe('finished');
    expect(hostile.games.map((g) => [g.termination, g.faultedSeats])).toEqual([
      ['completed', []],
      ['completed', []],
    ]);
    // Same seed, same seats: the spy plays like honest-exact, so any successful attack would show in the scores.
    expect(hostile.games.map((g) => g.scores)).toEqual(baseline.games.map((g) => g.scores));
    for (const game of hostile.games) {
      const transcript = engine.store.tournaments.transcript(hostile.id, game.seq) as Array<{ content: string }>;
      const report = transcript.map((e) => /^SPY (.*)$/.exec(e.content)?.[1]).find(Boolean);
      expect(JSON.parse(report as string)).toEqual({
        readDatabase: false,
        readRngKey: false,
        listHome: false,
        writeOutside: false,
        readOpponentEnviron: false,
        readEngineEnviron: false,
        readEngineMemory: false,
        signalOthers: false,
        connectLocalPort: false,
        escape: true,
      });
      // Both seats were sandboxed and reached only the engine's port.
      const endpoint = `127.0.0.1:${engine.port}`;
      expect(game.isolation).toEqual(
        [0, 1].map(() => ({
          method: 'bubblewrap',
          filesystem: 'sandbox',
          pid: 'namespace',
          network: 'endpoints',
          endpoints: [endpoint],
          trusted: false,
          seat: expect.objectContaining({ accounting: expect.any(String) }),
        })),
      );
    }
    // The spy's processes (its sandboxes, itself, what it left behind) were seen by host pid, and all are gone.
    expect(seen.length).toBeGreaterThanOrEqual(6);
    expect(stillRunning(seen)).toEqual([]);
    const report = fs.readFileSync(path.join(dir, 'reports', hostile.id, 'report.md'), 'utf8');
    expect(report).toContain(`| spy | bubblewrap: files sandbox, pid namespace, network endpoints (127.0.0.1:${engine.port}) |`);
  }, 120_000);

  it('ClawArena seats (Node and Python baselines) play sandboxed, reaching only the engine', async () => {
    const run = await play(engine, {
      name: 'claw sandboxed',
      challenge: 'liars_dice',
      format: 'round-robin',
      games_per_pairing: 1,
      concurrency: 1,
      seed: 'claw-sandbox-1',
      agents: [
        { manifest: path.join(ROOT, 'agents/clawarena/baseline-node/agent.yaml'), id: 'node' },
        { manifest: path.join(ROOT, 'agents/clawarena/baseline-python/agent.yaml'), id: 'python' },
      ],
      limits: { move_seconds: 10, game_seconds: 40 },
    });
    expect(run.games.map((g) => [g.termination, g.faultedSeats])).toEqual([['completed', []]]);
    expect(run.games[0]?.isolation?.map((i) => [i.method, i.network, i.endpoints])).toEqual([
      ['bubblewrap', 'endpoints', [`127.0.0.1:${engine.port}`]],
      ['bubblewrap', 'endpoints', [`127.0.0.1:${engine.port}`]],
    ]);
  }, 90_000);

  it('a seat killed from outside its sandbox voids the attempt (replayed), never the agent’s fault', async () => {
    let killed = 0;
    // Kill the sandbox of warm seat "truthful" (the engine is this process: its direct child) the moment the harness
    // has handed it a seat: the game is then under way with it, whatever the machine's speed. (Killed before it has a
    // seat, a warm process is simply restarted and no game is touched.)
    const killOnSeat = (req: http.IncomingMessage, res: http.ServerResponse): void => {
      if (!req.url?.startsWith('/api/arena/next-seat')) return;
      const key = req.headers.authorization?.slice('Bearer '.length);
      res.once('finish', () => {
        if (killed > 0 || res.statusCode !== 200 || !key) return;
        for (const pid of childrenOf(process.pid)) {
          let environ: string[];
          try {
            environ = fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
          } catch {
            continue;
          }
          if (!environHas(environ, 'ARENA_AGENT_ID=truthful') || !environHas(environ, `ARENA_AGENT_KEY=${key}`)) continue;
          process.kill(pid, 'SIGKILL');
          killed++;
          return;
        }
      });
    };
    engine.http.server.on('request', killOnSeat);
    const run = await play(engine, {
      name: 'outside-kill',
      challenge: 'millionaire',
      format: 'round-robin',
      games_per_pairing: 1,
      concurrency: 1,
      seed: 'outside-1',
      agents: [
        { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'truthful' },
        { manifest: path.join(MILLIONAIRE, 'bluffer/agent.yaml'), id: 'bluffer' },
      ],
      limits: { move_seconds: 10, game_seconds: 30 },
    });
    engine.http.server.off('request', killOnSeat);
    expect(killed).toBe(1);
    expect(run.games.map((g) => [g.attempt, g.termination, g.fault, g.faultedSeats])).toEqual([
      [1, 'harness_error', 'harness', []],
      [2, 'completed', 'none', []],
    ]);
    expect(run.games[0]?.detail).toMatch(/killed from outside its sandbox \(SIGKILL\)/);
  }, 120_000);
});

describe('fail closed in tournaments', () => {
  const agents = [
    { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'truthful' },
    { manifest: path.join(MILLIONAIRE, 'bluffer/agent.yaml'), id: 'bluffer' },
  ];
  const definition = { ...psi(agents), challenge: 'millionaire', games_per_pairing: 1, seed: 'closed-1' };

  it('refuses to start when the sandbox cannot start here, naming the fix', () => {
    setSandboxSupportForTests({ ...sandboxSupport(), ...probeBwrap(null, '/bin/true') });
    const t = engine.tournaments.create(definition, ROOT);
    expect(() => engine.tournaments.start(t.id)).toThrow(
      /cannot sandbox agent truthful, bluffer: .*apt-get install bubblewrap.*--trust-agent-dir/,
    );
    expect(engine.store.tournaments.games(t.id)).toEqual([]);
  });

  it('runs agents of trusted folders unsandboxed and records it in the games and the run manifest', async () => {
    setSandboxSupportForTests({ ...sandboxSupport(), ...probeBwrap(null, '/bin/true') });
    const dataDir = tempDir('arena-trusted-');
    const trusting = await startEngine({
      dataDir,
      port: 0,
      logLevel: 'silent',
      rendererDir: null,
      resumeTournaments: false,
      trustedAgentDirs: [MILLIONAIRE],
    });
    try {
      const run = await play(trusting, definition);
      expect(run.outcome.status).toBe('finished');
      expect(run.games.map((g) => g.termination)).toEqual(['completed']);
      expect(run.games[0]?.isolation?.map((i) => [i.method, i.filesystem, i.pid, i.network, i.trusted])).toEqual([
        ['none', 'host', 'host', 'loopback', true],
        ['none', 'host', 'host', 'loopback', true],
      ]);
      expect(trusting.store.tournaments.get(run.id)?.manifest.unsandboxed_agents).toEqual(['truthful', 'bluffer']);
    } finally {
      await trusting.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
