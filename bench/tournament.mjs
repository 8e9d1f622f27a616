// bench:tournament — the quickstart tournament (PSI baseline agents, real processes through the runner) repeated
// until --games games, at --concurrency (default 2), played twice in the same run: every agent per-game (a fresh
// process per seat) and every agent warm (lifecycle: persistent, one process per agent and slot). Prints per
// lifecycle games/s, the engine's CPU per game (this process: HTTP, SQLite, runner, scheduling), harness overhead per
// game and the harness-fault count. Overhead = a game's wall time minus the time its agents were running the game
// (first agent start → end of game): session set-up, seat keys, process launch preparation, teardown and commit.
// Needs `npm run build`. Quick run: npm run bench:tournament -- --games=200 (--only=warm|per-game for one of them)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';

const root = path.resolve(import.meta.dirname, '..');
const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const GAMES = Number(args.get('games') ?? 2000);
const CONCURRENCY = Number(args.get('concurrency') ?? 2);
const ONLY = args.get('only');
const app = path.join(root, 'dist/engine/app.js');
if (!fs.existsSync(app)) {
  process.stderr.write('bench:tournament: run "npm run build" first\n');
  process.exit(1);
}
const { startEngine } = await import(app);

const quickstart = path.join(root, 'examples/quickstart.tournament.yaml');
const raw = YAML.parse(fs.readFileSync(quickstart, 'utf8'));
// 3 agents × 4 games per pairing = 12 games per round-robin cycle.
const perCycle = 12;

async function run(lifecycle) {
  const spec = {
    ...raw,
    name: `bench ${lifecycle}`,
    format: { kind: 'round-robin', cycles: Math.max(1, Math.ceil(GAMES / perCycle)) },
    concurrency: CONCURRENCY,
    agents: raw.agents.map((a) => ({ ...a, lifecycle })),
  };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-bench-tournament-'));
  const engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
  try {
    const t = engine.tournaments.create(spec, path.dirname(quickstart));
    let done = 0;
    engine.tournaments.subscribe(t.id, (e) => {
      if (e.event === 'game_ended' && ++done % 500 === 0) process.stderr.write(`  ${lifecycle}: ${done}/${t.plannedGames} games\n`);
    });
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    const outcome = await engine.tournaments.start(t.id);
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const games = engine.store.tournaments.games(t.id);
    const overhead = games.map((g) => g.endedAt - g.startedAt - g.agentMs).sort((a, b) => a - b);
    const wall = games.map((g) => g.endedAt - g.startedAt);
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
    const byTermination = {};
    for (const g of games) byTermination[g.termination] = (byTermination[g.termination] ?? 0) + 1;
    const harness = games.filter((g) => g.fault === 'harness').length;
    return {
      lifecycle,
      outcome: outcome.status,
      games: games.length,
      seconds: Number(seconds.toFixed(2)),
      games_per_second: Number((games.length / seconds).toFixed(2)),
      game_wall_ms_mean: Number(mean(wall).toFixed(1)),
      engine_cpu_ms_per_game: Number(((cpu.user + cpu.system) / 1000 / Math.max(1, games.length)).toFixed(1)),
      harness_overhead_ms: { mean: Number(mean(overhead).toFixed(1)), p50: pct(overhead, 0.5), p95: pct(overhead, 0.95) },
      harness_faults: harness,
      terminations: byTermination,
    };
  } finally {
    await engine.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = [];
for (const lifecycle of ['per-game', 'persistent'])
  if (!ONLY || ONLY === lifecycle || (ONLY === 'warm' && lifecycle === 'persistent')) results.push(await run(lifecycle));
const [cold, warm] = results;
const summary = {
  cores: os.availableParallelism(),
  concurrency: CONCURRENCY,
  runs: results,
  ...(cold && warm
    ? {
        warm_vs_per_game: {
          games_per_second: Number((warm.games_per_second / cold.games_per_second).toFixed(2)),
          engine_cpu_per_game: Number((warm.engine_cpu_ms_per_game / cold.engine_cpu_ms_per_game).toFixed(2)),
        },
      }
    : {}),
};
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
