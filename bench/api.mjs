// bench:api — complete PSI games over HTTP on loopback against `arena serve` (SQLite, durable), against a bare
// node:http floor answering the same request sequence, against Fastify with the engine's listener options answering
// it the same way, against a design lower bound for a durable engine (live games in memory, one appended SQLite row
// per action) and against the engine called straight from a bare node:http server (no framework, no checks), in the
// same run. Prints games/s, request latency and each server's own CPU per game
// (from the OS), as a multiple of the bare floor's and of the append-only bound's (the target: at most 2x the
// latter at each concurrency). Needs `npm run build`.
import os from 'node:os';
import { PAIRS, runInterleaved, start, startArena, WARMUP_GAMES, YARDSTICKS } from './api-game.mjs';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const limits = {
  games: Number(args.get('games') ?? 600),
  warmup: Number(args.get('warmup') ?? WARMUP_GAMES),
  // The servers play in alternating rounds, so drift in the machine's speed during a run hits them all alike.
  rounds: Number(args.get('rounds') ?? 6),
  maxSeconds: Number(args.get('max-seconds') ?? 120),
};
const CONCURRENCY = (args.get('concurrency') ?? '1,8').split(',').map(Number);
const fmt = (n, d = 2) => n.toFixed(d);
const yardsticks = [];
for (const { label, script } of YARDSTICKS) yardsticks.push({ label, server: await start(process.execPath, [script]) });
const engine = await startArena();
const servers = [...yardsticks, { label: 'local-arena', server: engine }];
const rows = [];
try {
  for (const [i, concurrency] of CONCURRENCY.entries()) {
    // One warm-up per server, before the first concurrency: the later rows find them warm.
    const results = await runInterleaved(
      servers.map(({ server }) => ({ url: server.url, pid: server.child.pid })),
      concurrency,
      { ...limits, warmup: i === 0 ? limits.warmup : 0 },
    );
    rows.push({ concurrency, results });
  }
} finally {
  await engine.close();
  for (const { server } of yardsticks) server.child.kill('SIGTERM');
}

console.log(
  `bench:api — PSI games over HTTP on 127.0.0.1 (${os.cpus().length} cores, Node ${process.version}); 11 requests per game, ${PAIRS} user pairs`,
);
const APPEND_ONLY = YARDSTICKS.findIndex((y) => y.label === 'append-only bound');
console.log('server             conc  games  failed  games/s  req/s   p50 ms  p99 ms  server CPU ms/game  × floor  × append-only');
for (const { concurrency, results } of rows) {
  const [bare] = results;
  for (const [i, r] of results.entries()) {
    const ratio = r.cpuPerGame / bare.cpuPerGame;
    const vsAppend = r.cpuPerGame / results[APPEND_ONLY].cpuPerGame;
    console.log(
      `${servers[i].label.padEnd(18)} ${String(concurrency).padStart(4)}  ${String(r.games).padStart(5)}  ${String(r.failed).padStart(6)}  ${fmt(r.gamesPerSecond, 1).padStart(7)}  ${fmt(r.requestsPerSecond, 0).padStart(5)}  ${fmt(r.p50).padStart(6)}  ${fmt(r.p99).padStart(6)}  ${fmt(r.cpuPerGame).padStart(18)}  ${fmt(ratio).padStart(7)}  ${fmt(vsAppend).padStart(13)}`,
    );
  }
}
console.log(`warm-up (${limits.warmup} games a server, one at a time): CPU ms/game over its first → last fifth`);
for (const [i, { label }] of servers.entries()) {
  const w = rows[0]?.results[i]?.warmup;
  if (w) console.log(`  ${label.padEnd(18)} ${fmt(w.firstFifth)} → ${fmt(w.lastFifth)}`);
}
// Issue 14's target was re-scoped: the durable append-only bound is itself 1.5-2x the bare floor, so Local Arena is held
// to at most 2x that bound at each concurrency; the bare-floor multiple stays printed for comparison with older runs.
for (const { concurrency, results } of rows) {
  const vsAppend = results.at(-1).cpuPerGame / results[APPEND_ONLY].cpuPerGame;
  const vsBare = results.at(-1).cpuPerGame / results[0].cpuPerGame;
  console.log(
    `concurrency ${concurrency}: local-arena CPU per game ${fmt(vsAppend)}× the append-only bound (goal: at most 2×) ${vsAppend <= 2 ? 'met' : 'NOT met'}; ${fmt(vsBare)}× the bare floor`,
  );
}
if (rows.some(({ results }) => results.some((r) => r.failed > 0))) process.exitCode = 1;
