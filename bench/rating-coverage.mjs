// bench:coverage — how often the nominal 95% rating intervals hold the truth (issue 44), each cell's minimum beside
// its mean:
//   1. two agents, exact: every outcome of n games (n 2–100) weighted by its probability at every true gap 0–800 Elo
//      (10-Elo steps), for the Bradley–Terry interval and the head-to-head Elo interval; --draws=0.3 adds draws;
//   2. 4 and 8 agents, simulated: round-robins with the true ratings 0–400 Elo apart (fixed steps), 10–300 games,
//      --replicates tournaments per cell; min = the worst-covered agent;
//   3. rank ranges of equal agents (4 and 6 agents), the case where they are least conservative.
// Needs `npm run build`. Example: npm run bench:coverage -- --replicates=1000 --draws=0.3 --seed=mine
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const REPLICATES = Number(args.get('replicates') ?? 200);
const DRAWS = Number(args.get('draws') ?? 0);
const SEED = args.get('seed') ?? 'bench-coverage';
const module = path.join(root, 'dist/engine/core/ratings/coverage-simulation.js');
if (!fs.existsSync(module)) {
  process.stderr.write('bench:coverage: run "npm run build" first\n');
  process.exit(1);
}
const { exactTwoAgentCoverage, simulateFieldCoverage } = await import(module);
const started = performance.now();
const out = (line) => process.stdout.write(`${line}\n`);
const pct = (x) => `${(100 * x).toFixed(1)}`;
const cell = (min, mean) => `${pct(min)}/${pct(mean)}`.padStart(11);
const failures = [];

// 1. Exact, two agents.
const games = Array.from({ length: 99 }, (_, i) => i + 2);
const gaps = Array.from({ length: 81 }, (_, i) => 10 * i);
const bands = [
  [0, 200],
  [200, 400],
  [400, 600],
  [600, 800],
];
const exact = exactTwoAgentCoverage({ games, gaps, drawRate: DRAWS });
out(`1. Two agents, exact enumeration (draw rate ${DRAWS}); coverage % min/mean over the gaps in each band, and over all n in a row group`);
out(
  `${'games'.padEnd(9)}${bands.map(([a, b]) => `BT ${a}–${b}`.padStart(12)).join('')}${bands.map(([a, b]) => `H2H ${a}–${b}`.padStart(12)).join('')}`,
);
const groups = [[2], [3], [4], [5], [6, 10], [11, 20], [21, 50], [51, 100]];
const bandOf = (row, [a, b]) => row.byGap.filter((_, g) => gaps[g] >= a && gaps[g] <= b);
for (const [from, to = from] of groups) {
  const pick = (cells) => cells.filter((c) => c.games >= from && c.games <= to);
  const stat = (cells, band) => {
    const values = pick(cells).flatMap((c) => bandOf(c, band));
    return cell(Math.min(...values), values.reduce((x, y) => x + y, 0) / values.length);
  };
  out(
    `${(from === to ? `${from}` : `${from}–${to}`).padEnd(9)}${bands.map((b) => stat(exact.ratings, b).padStart(12)).join('')}${bands.map((b) => stat(exact.headToHead, b).padStart(12)).join('')}`,
  );
}
const worst = (cells) => Math.min(...cells.map((c) => c.min));
out(`lowest over every n 2–100 and gap 0–800: BT ${pct(worst(exact.ratings))}%, head-to-head ${pct(worst(exact.headToHead))}%`);
if (worst(exact.ratings) < 0.93) failures.push('two-agent BT');
if (worst(exact.headToHead) < 0.93) failures.push('two-agent head-to-head');

// 2. Simulated fields at fixed steps.
const steps = [0, 100, 200, 300, 400];
const sizes = [10, 30, 100, 300];
for (const agents of [4, 8]) {
  out('');
  out(`2. ${agents} agents, round-robin, true ratings a fixed step apart; ${REPLICATES} tournaments per cell; % worst agent/mean`);
  out(`${'games'.padEnd(9)}${steps.map((s) => `step ${s}`.padStart(12)).join('')}`);
  for (const n of sizes) {
    const row = steps.map((step) => {
      const c = simulateFieldCoverage({
        agents,
        step,
        games: n,
        replicates: REPLICATES,
        seed: `${SEED}:${agents}:${step}:${n}`,
        drawRate: DRAWS,
      });
      if (agents === 4 && step === 400 && c.min < 0.93) failures.push(`4 agents, 400 Elo, ${n} games`);
      return cell(c.min, c.mean).padStart(12);
    });
    out(`${String(n).padEnd(9)}${row.join('')}`);
  }
}

// 3. Rank ranges of equal agents.
out('');
out(`3. Rank ranges, all agents equal (true rank 1 for all); % of agents whose range holds it; ${REPLICATES} tournaments per cell`);
out(`${'games'.padEnd(9)}${[4, 6].map((k) => `${k} agents`.padStart(12)).join('')}`);
for (const n of [10, 30, 100, 300]) {
  const row = [4, 6].map((agents) =>
    pct(
      simulateFieldCoverage({ agents, step: 0, games: n, replicates: REPLICATES, seed: `${SEED}:ranks:${agents}:${n}`, ranks: true }).ranks,
    ).padStart(12),
  );
  out(`${String(n).padEnd(9)}${row.join('')}`);
}
out('');
out(
  `${failures.length === 0 ? 'every acceptance cell ≥ 93%' : `below 93%: ${failures.join('; ')}`} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
);
process.exitCode = failures.length === 0 ? 0 : 1;
