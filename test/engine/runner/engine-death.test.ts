// When the engine itself dies (kill -9 of `arena run`), every agent sandbox dies with it (bubblewrap's
// --die-with-parent): no agent process, and nothing an agent left behind, keeps running. Trusted agents (no sandbox)
// outlive it, daemons and all; the next engine start ends them (orphan-host-agents.ts). Checked by host pid.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { startEngine } from '../../../engine/app.js';
import { SUPERVISOR_ENV } from '../../../engine/runner/orphan-host-agents.js';
import { sandboxSupport } from '../../../engine/runner/sandbox.js';
import { processesWith, type SeenProcess, stillRunning } from '../../support/agent-processes.js';
import { ROOT, tempDir } from '../tournaments/helpers.js';

const BIN = path.join(ROOT, 'bin/arena.js');
const HANG = path.join(ROOT, 'test/fixtures/agents/tournament/hang-bot/agent.yaml');
const DAEMON_DIR = path.join(ROOT, 'test/fixtures/agents/tournament/daemon-bot');
let dir: string;

function environ(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
  } catch {
    return [];
  }
}

function tournamentSpec(name: string, manifest: string, ids: [string, string]): string {
  const specFile = path.join(dir, `${name}.tournament.yaml`);
  fs.writeFileSync(
    specFile,
    YAML.stringify({
      name,
      challenge: 'millionaire',
      format: 'round-robin',
      games_per_pairing: 2,
      concurrency: 2,
      seed: `${name}-1`,
      agents: ids.map((id) => ({ manifest, id })),
      limits: { move_seconds: 60, game_seconds: 120 },
    }),
  );
  return specFile;
}

async function sampleUntil(markers: string[], seen: Map<number, SeenProcess>, atLeast: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (seen.size < atLeast && Date.now() < deadline) {
    for (const marker of markers) for (const p of processesWith(marker)) seen.set(p.pid, p);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(() => {
  // The CLI runs the compiled engine; build it when this checkout has not been built yet.
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/runner/os-sandbox.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  dir = tempDir('arena-engine-death-');
}, 250_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it.runIf(process.platform === 'linux' && sandboxSupport().bwrap != null)(
  'kill -9 of the engine takes every agent sandbox down with it',
  async () => {
    const specFile = tournamentSpec('engine-death', HANG, ['hang-a', 'hang-b']);
    const child = spawn(process.execPath, [BIN, 'run', specFile, '--data-dir', path.join(dir, 'data'), '--json'], { stdio: 'ignore' });
    const seen = new Map<number, SeenProcess>();
    // Both games' four seats are up: two sandbox processes and the agent each.
    await sampleUntil(['ARENA_AGENT_ID=hang-a', 'ARENA_AGENT_ID=hang-b'], seen, 12);
    expect(seen.size).toBeGreaterThanOrEqual(12);
    // The sandbox ends its agents; they carry no supervisor mark (nor the engine's pid).
    for (const p of seen.keys()) expect(environ(p).some((entry) => entry.startsWith(`${SUPERVISOR_ENV}=`))).toBe(false);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const gone = Date.now() + 5_000;
    while (stillRunning([...seen.values()]).length > 0 && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stillRunning([...seen.values()])).toEqual([]);
  },
  90_000,
);

it.runIf(process.platform === 'linux')(
  'trusted agents outlive a kill -9 of the engine, daemons and all, and the next engine start ends them',
  async () => {
    const specFile = tournamentSpec('trusted-death', path.join(DAEMON_DIR, 'agent.yaml'), ['daemon-a', 'daemon-b']);
    const child = spawn(
      process.execPath,
      [BIN, 'run', specFile, '--data-dir', path.join(dir, 'trusted-data'), '--trust-agent-dir', DAEMON_DIR, '--json'],
      { stdio: 'ignore' },
    );
    const seen = new Map<number, SeenProcess>();
    const data = tempDir('arena-engine-next-');
    try {
      // Four seats, each an agent and the daemon it started.
      await sampleUntil(['ARENA_AGENT_ID=daemon-a', 'ARENA_AGENT_ID=daemon-b'], seen, 8);
      expect(seen.size).toBeGreaterThanOrEqual(8);
      // Every one names the engine that launched it, the daemons (in sessions of their own) included.
      for (const p of seen.keys())
        expect(environ(p).find((e) => e.startsWith(`${SUPERVISOR_ENV}=`))).toMatch(
          new RegExp(`^${SUPERVISOR_ENV}=${child.pid}:\\d+:\\d+$`),
        );
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      // No sandbox and no namespace: they run on (checked at once: any engine start, a parallel test's too, may end
      // them now). The daemons at least; an agent may soon exit by itself once its arena is gone.
      expect(stillRunning([...seen.values()]).length).toBeGreaterThanOrEqual(4);
      const engine = await startEngine({ dataDir: data, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
      await engine.close();
      const gone = Date.now() + 5_000;
      while (stillRunning([...seen.values()]).length > 0 && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stillRunning([...seen.values()])).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      for (const p of stillRunning([...seen.values()])) process.kill(p.pid, 'SIGKILL');
      fs.rmSync(data, { recursive: true, force: true });
    }
  },
  90_000,
);
