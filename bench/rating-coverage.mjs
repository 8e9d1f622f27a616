// bench:coverage — the rating-interval coverage simulation of the test suite, with as many replicates as you like:
// tournaments between agents with known Bradley–Terry strengths (2, 3, 4 or 6 agents; rating SD 0, 100, 200 or
// 400 Elo drawn per tournament), rated as a run is, and the share of nominal 95% intervals that contain the truth.
// Needs `npm run build`. Example: npm run bench:coverage -- --replicates=10000 --draws=0.3 --seed=mine
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const REPLICATES = Number(args.get('replicates') ?? 2000);
const DRAWS = Number(args.get('draws') ?? 0);
const SEED = args.get('seed') ?? 'bench-coverage';
const PRIOR = args.has('prior-draws') ? Number(args.get('prior-draws')) : undefined;
const module = path.join(root, 'dist/engine/core/ratings/coverage-simulation.js');
if (!fs.existsSync(module)) {
  process.stderr.write('bench:coverage: run "npm run build" first\n');
  process.exit(1);
}
const { DEFAULT_SIZES, simulateCoverage } = await import(module);
const sizes = args.has('sizes') ? args.get('sizes').split(',').map(Number) : DEFAULT_SIZES;
const started = performance.now();
const common = { sizes, replicates: REPLICATES, seed: SEED, drawRate: DRAWS, ...(PRIOR === undefined ? {} : { priorDraws: PRIOR }) };
const field = simulateCoverage(common);
const pairs = simulateCoverage({ ...common, seed: `${SEED}:h2h`, agentCounts: [2] });
const pct = (x) => `${(100 * x).toFixed(1)}%`;
process.stdout.write(`rating-interval coverage: ${REPLICATES} tournaments per size, draw rate ${DRAWS}, seed ${SEED}\n`);
process.stdout.write('games  BT coverage  intervals  perfect records  mean ± (Elo, closed sides)  head-to-head coverage\n');
field.forEach((row, i) => {
  const h = pairs[i].headToHead;
  process.stdout.write(
    `${String(row.games).padStart(5)}  ${pct(row.coverage).padStart(11)}  ${String(row.intervals).padStart(9)}  ${String(row.perfectRecords).padStart(15)}  ${row.meanHalfWidth.toFixed(0).padStart(26)}  ${pct(h.coverage).padStart(21)}\n`,
  );
});
const bad = [...field.map((r) => r.coverage), ...pairs.map((r) => r.headToHead.coverage)].filter((c) => !(c >= 0.93 && c <= 0.99));
process.stdout.write(
  `${bad.length === 0 ? 'all sizes within 93–99%' : `${bad.length} cells outside 93–99%`} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
);
process.exitCode = bad.length === 0 ? 0 : 1;
