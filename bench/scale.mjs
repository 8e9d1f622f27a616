// bench:scale — costs that must not grow with a tournament (issue 14 §6). Plays a real small PSI run with the shipped
// baselines, then grows a synthetic PSI tournament (two agents, seat-swapped pairs, an SPRT stop that never decides)
// to --games games (default 100,000) through the real executor and commit path, each game a copy of one of the real
// run's rows (transcript, scores, detail) with results alternating per pair. At each checkpoint (1k, 10k, 100k by
// default) the run pauses and the real HTTP server of `arena serve` (127.0.0.1, port 0) is timed: the tournaments
// list, one tournament, a 50-row games page (first and last), standings (first request after new games, and
// cached), charts, a comparison of the run with itself, and all exports (wall and CPU ms; CPU is what a loaded machine
// distorts least; and the longest a request made during the exports waited, i.e. how long the engine stopped
// answering while they were written); plus the executor's wall and CPU time per game over the games before the
// checkpoint. Ratios are against the first checkpoint measured in the same run. Each checkpoint also shows the games
// the executor holds in memory and the JavaScript heap after a full collection, taken before the timings.
// Needs `npm run build`. Quick run: npm run bench:scale -- --games=3000 --checkpoints=300,1000,3000
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';

const root = path.resolve(import.meta.dirname, '..');
const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const GAMES = Number(args.get('games') ?? 100_000);
const CHECKPOINTS = (args.get('checkpoints') ?? '1000,10000,100000')
  .split(',')
  .map(Number)
  .filter((n) => n <= GAMES);
const REPEAT = Number(args.get('repeat') ?? 15);
/** Games before each checkpoint the executor's per-game cost is averaged over. */
const WINDOW = Number(args.get('window') ?? 500);
const app = path.join(root, 'dist/engine/app.js');
if (!fs.existsSync(app)) {
  process.stderr.write('bench:scale: run "npm run build" first\n');
  process.exit(1);
}
const { startEngine } = await import(app);

const quickstart = path.join(root, 'examples/quickstart.tournament.yaml');
const raw = YAML.parse(fs.readFileSync(quickstart, 'utf8'));
const agents = raw.agents.slice(0, 2);
const firstManifest = path.resolve(path.dirname(quickstart), agents[0].manifest);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-bench-scale-'));
const engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
const admin = (p) => `${engine.url}/admin/api/v1${p}`;
const headers = { authorization: `Bearer ${engine.token}`, 'content-type': 'application/json' };

/** One request: wall ms, and CPU ms of this process (server and client share it; the client's part is constant). */
async function request(p, method = 'GET') {
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const res = await fetch(admin(p), { method, headers, ...(method === 'POST' ? { body: '{}' } : {}) });
  const body = await res.arrayBuffer();
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${Buffer.from(body).toString('utf8').slice(0, 300)}`);
  return { ms, cpu: (cpu.user + cpu.system) / 1000, bytes: body.byteLength, body };
}

/** The JavaScript heap in use, after a full collection when node runs with --expose-gc (as `npm run bench:scale` does). */
function heapMb() {
  globalThis.gc?.();
  return round(process.memoryUsage().heapUsed / 2 ** 20, 1);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(p, repeat = REPEAT) {
  const runs = [];
  for (let i = 0; i < repeat; i++) runs.push(await request(p));
  return {
    ms_median: round(median(runs.map((r) => r.ms))),
    cpu_ms_median: round(median(runs.map((r) => r.cpu))),
    ms_max: round(Math.max(...runs.map((r) => r.ms))),
    bytes: runs[0].bytes,
  };
}

const round = (x, digits = 2) => Number(x.toFixed(digits));

try {
  // 1. A real small run: the rows the synthetic games copy.
  process.stderr.write('bench:scale: a real PSI run for the template rows…\n');
  const small = engine.tournaments.create(
    { ...raw, name: 'scale templates', agents, games_per_pairing: 6, stop: { kind: 'fixed' } },
    path.dirname(quickstart),
  );
  const smallOutcome = await engine.tournaments.start(small.id);
  const templates = engine.store.tournaments
    .games(small.id)
    .filter((g) => g.termination === 'completed')
    .map((g) => ({ ...g, transcript: engine.store.tournaments.transcript(small.id, g.seq) }));
  if (templates.length === 0) throw new Error(`the template run has no completed game (${JSON.stringify(smallOutcome)})`);

  // 2. The synthetic run: the same two agents, every game a copy of a template row played through the executor.
  const spec = {
    ...raw,
    name: 'scale',
    agents,
    // Room past the last checkpoint, so the run pauses there instead of finishing.
    games_per_pairing: GAMES + 1000,
    concurrency: 2,
    stop: { kind: 'sprt', elo0: -10, elo1: 10, alpha: 0.001, beta: 0.001 },
  };
  engine.tournaments.overrides.runners = {
    specarena: {
      async play(_context, game) {
        await new Promise((resolve) => setImmediate(resolve));
        const t = templates[game.gameIndex % templates.length];
        // Agent 0 takes both games of even pairs, agent 1 of odd ones: the LLR stays at 0, the SPRT never stops it.
        const winner = Math.floor((game.swapOf ?? game.gameIndex) / 2) % 2;
        const now = Date.now();
        return {
          sessionId: null,
          invites: game.seats.map((_, i) => `inv_${i}`),
          termination: 'completed',
          faultedSeats: [],
          placements: game.seats.map((a) => (a === winner ? 1 : 2)),
          scores: t.scores,
          detail: t.detail,
          agentMs: t.agentMs,
          startedAt: now,
          endedAt: now,
          transcript: t.transcript,
        };
      },
    },
  };
  const big = engine.tournaments.create(spec, path.dirname(quickstart));
  // Wall and CPU time at each game end, to average the executor's cost per game over windows.
  const ends = [];
  let nextCheckpoint = 0;
  /** Games the executor kept in memory when it reached the checkpoint (only those not settled yet). */
  let heldAtCheckpoint = null;
  engine.tournaments.subscribe(big.id, (e) => {
    if (e.event !== 'game_ended') return;
    const cpu = process.cpuUsage();
    // Only the window before the next checkpoint: a list of every game would grow this process's heap with the run.
    const upcoming = CHECKPOINTS[nextCheckpoint] ?? Number.POSITIVE_INFINITY;
    if (e.games_done > upcoming - WINDOW) ends.push({ games: e.games_done, at: performance.now(), cpu: (cpu.user + cpu.system) / 1000 });
    if (e.games_done % 10_000 === 0) process.stderr.write(`  ${e.games_done}/${GAMES} games\n`);
    if (e.games_done >= upcoming) {
      heldAtCheckpoint = engine.tournaments.heldAttempts(big.id);
      nextCheckpoint++;
      engine.tournaments.pause(big.id);
    }
  });

  const rows = [];
  for (const checkpoint of CHECKPOINTS) {
    const outcome = await engine.tournaments.start(big.id);
    if (outcome.status !== 'paused') throw new Error(`the synthetic run ended early: ${JSON.stringify(outcome)}`);
    const window = ends.splice(0).filter((e) => e.games > checkpoint - WINDOW && e.games <= checkpoint);
    const first = window[0];
    const last = window[window.length - 1];
    const perGame = first && last && last.games > first.games ? (last.at - first.at) / (last.games - first.games) : Number.NaN;
    const cpuPerGame = first && last && last.games > first.games ? (last.cpu - first.cpu) / (last.games - first.games) : Number.NaN;
    const summary = JSON.parse(Buffer.from((await request(`/tournaments/${big.id}`)).body).toString('utf8'));
    const total = engine.store.tournaments.listGames(big.id, { finalOnly: true, limit: 1 }).total;
    const standingsFirst = await request(`/tournaments/${big.id}/standings`);
    const row = {
      games: summary.games_done,
      executor_wall_ms_per_game: round(perGame, 3),
      executor_cpu_ms_per_game: round(cpuPerGame, 3),
      executor_held_attempts: heldAtCheckpoint,
      heap_mb: heapMb(),
      list: await timed('/tournaments?limit=50'),
      tournament: await timed(`/tournaments/${big.id}`),
      games_page_first: await timed(`/tournaments/${big.id}/games?limit=50`),
      games_page_last: await timed(`/tournaments/${big.id}/games?limit=50&offset=${Math.max(0, total - 50)}`),
      standings_first_ms: round(standingsFirst.ms),
      standings_first_cpu_ms: round(standingsFirst.cpu),
      standings: await timed(`/tournaments/${big.id}/standings`),
      charts: await timed(`/tournaments/${big.id}/charts`),
      // The Agents page's runs of one agent: its games and points in every tournament that used it.
      agent_runs: await timed(`/agents/runs?manifest=${encodeURIComponent(firstManifest)}`),
    };
    // Comparing the run with itself: both sides read from the store, every game paired.
    const compared = await request(`/tournaments/compare?a=${big.id}&b=${big.id}`);
    row.compare_ms = round(compared.ms);
    row.compare_cpu_ms = round(compared.cpu);
    row.rss_before_exports_mb = round(process.memoryUsage().rss / 2 ** 20, 1);
    // Exports last: writing hundreds of MB evicts the page cache the timings above ran with.
    // While they are written, a small request every 25 ms: the longest any took is how long the engine stopped
    // answering during the exports (their CPU, well under 1 ms each, is in the exports' CPU below).
    let exporting = true;
    const probes = [];
    const probing = (async () => {
      while (exporting) {
        const t0 = performance.now();
        await (await fetch(admin('/tournaments?limit=1'), { headers })).arrayBuffer();
        probes.push(performance.now() - t0);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const exported = await request(`/tournaments/${big.id}/exports`, 'POST').finally(() => {
      exporting = false;
    });
    await probing;
    row.exports_probes = probes.length;
    row.exports_longest_probe_ms = round(Math.max(...probes));
    const reportDir = path.join(dataDir, 'reports', big.id);
    row.exports_ms = round(exported.ms);
    row.exports_cpu_ms = round(exported.cpu);
    row.exports_bytes = fs.readdirSync(reportDir).reduce((acc, f) => acc + fs.statSync(path.join(reportDir, f)).size, 0);
    row.rss_mb = round(process.memoryUsage().rss / 2 ** 20, 1);
    fs.rmSync(reportDir, { recursive: true, force: true });
    rows.push(row);
    process.stderr.write(`  checkpoint ${JSON.stringify(row)}\n`);
  }
  const [base] = rows;
  const top = rows[rows.length - 1];
  const ratio = (pick) => round(pick(top) / pick(base), 2);
  const out = {
    cores: os.availableParallelism(),
    load_average: os.loadavg().map((x) => round(x)),
    template_games: templates.length,
    checkpoints: rows,
    [`ratio_${top.games}_vs_${base.games}`]: {
      executor_wall_per_game: ratio((r) => r.executor_wall_ms_per_game),
      executor_cpu_per_game: ratio((r) => r.executor_cpu_ms_per_game),
      list_cpu: ratio((r) => r.list.cpu_ms_median),
      tournament_cpu: ratio((r) => r.tournament.cpu_ms_median),
      games_page_first_cpu: ratio((r) => r.games_page_first.cpu_ms_median),
      standings_cpu: ratio((r) => r.standings.cpu_ms_median),
      standings_first_cpu: ratio((r) => r.standings_first_cpu_ms),
      charts_cpu: ratio((r) => r.charts.cpu_ms_median),
      agent_runs_cpu: ratio((r) => r.agent_runs.cpu_ms_median),
      exports_cpu: ratio((r) => r.exports_cpu_ms),
      heap: ratio((r) => r.heap_mb),
    },
    targets: {
      list_under_50ms: top.list.ms_median < 50,
      games_page_under_50ms: top.games_page_first.ms_median < 50,
      standings_under_250ms: top.standings_first_ms < 250,
    },
  };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
} finally {
  await engine.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
