// bench:adaptive — games the adaptive format needs to decide a ranking, against round-robin in whole rounds to the
// same stopping rule (every adjacent pair of the ranking decided at 95%), on simulated fields of 6 and 8 agents with
// true ratings drawn from 0–600 Elo (adjacent gaps ≥ 40), draws and a seat edge. Same fields, same seeds, no
// processes: the format's own step function in a loop. Then tables of 3 and 4 seats (6 agents at 3 and 4 seats, 8 at
// 4): adaptive tables against every table of the field in whole rounds, to the same rule. Needs `npm run build`.
// Example: npm run bench:adaptive -- --fields=20 --seed=mine --json
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const json = argv.includes('--json');
const args = new Map(argv.filter((a) => a.includes('=')).map((a) => a.replace(/^--/, '').split('=')));
const FIELDS = Number(args.get('fields') ?? 40);
const SEED = args.get('seed') ?? 'bench-adaptive';
const module = path.join(root, 'dist/engine/core/tournament/adaptive-simulation.js');
if (!fs.existsSync(module)) {
  process.stderr.write('bench:adaptive: run "npm run build" first\n');
  process.exit(1);
}
const { compareSchedules } = await import(module);
const { compareTableSchedules } = await import(path.join(root, 'dist/engine/core/tournament/adaptive-table-simulation.js'));
const started = performance.now();
const rows = [6, 8].map((agents) => compareSchedules({ agents, fields: FIELDS, seed: SEED }));
// Multi-seat tables: adaptive tables against every table of the field in whole rounds, to the same rule.
const tableRows = [
  [6, 3],
  [6, 4],
  [8, 4],
].map(([agents, seats]) => compareTableSchedules({ agents, seats, fields: Math.max(1, Math.round(FIELDS / 2)), seed: SEED }));
const tableSum = (f) => tableRows.reduce((s, r) => s + f(r), 0);
const sum = (f) => rows.reduce((s, r) => s + f(r), 0);
const adaptiveGames = sum((r) => r.adaptiveGames);
const roundRobinGames = sum((r) => r.roundRobinGames);
const result = {
  games_vs_round_robin: Number((adaptiveGames / roundRobinGames).toFixed(3)),
  wrong_decisions_rate: Number(
    (
      sum((r) => r.wrongPairs) /
      Math.max(
        1,
        sum((r) => r.decidedPairs),
      )
    ).toFixed(4),
  ),
  round_robin_wrong_decisions_rate: Number(
    (
      sum((r) => r.roundRobinWrong) /
      Math.max(
        1,
        sum((r) => r.roundRobinDecided),
      )
    ).toFixed(4),
  ),
  decided_pairs: sum((r) => r.decidedPairs),
  fields: sum((r) => r.fields),
  resolved_fields: sum((r) => r.resolved),
  interval_coverage: Number((sum((r) => r.intervals.covered) / sum((r) => r.intervals.checked)).toFixed(4)),
  sequence_coverage: Number((sum((r) => r.sequences.covered) / sum((r) => r.sequences.checked)).toFixed(4)),
  tables_vs_all_tables: Number((tableSum((r) => r.adaptiveGames) / tableSum((r) => r.allTablesGames)).toFixed(3)),
  tables_wrong_decisions_rate: Number(
    (
      tableSum((r) => r.wrongPairs) /
      Math.max(
        1,
        tableSum((r) => r.decidedPairs),
      )
    ).toFixed(4),
  ),
  seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
};
if (json) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  process.stdout.write(`adaptive vs round-robin: ${FIELDS} fields per size, seed ${SEED}, 95% decisions\n`);
  process.stdout.write('agents  fields resolved  adaptive games/field  round-robin games/field  ratio  wrong (adaptive)\n');
  for (const r of rows)
    process.stdout.write(
      `${String(r.agents).padStart(6)}  ${String(r.resolved).padStart(15)}  ${(r.adaptiveGames / r.resolved).toFixed(0).padStart(20)}  ${(r.roundRobinGames / r.resolved).toFixed(0).padStart(23)}  ${(r.adaptiveGames / r.roundRobinGames).toFixed(3).padStart(5)}  ${r.wrongPairs}/${r.decidedPairs}\n`,
    );
  process.stdout.write('agents  seats  fields resolved  adaptive games/field  all-tables games/field  ratio  wrong (adaptive)\n');
  for (const r of tableRows)
    process.stdout.write(
      `${String(r.agents).padStart(6)}  ${String(r.seats).padStart(5)}  ${String(r.resolved).padStart(15)}  ${(r.adaptiveGames / r.resolved).toFixed(0).padStart(20)}  ${(r.allTablesGames / r.resolved).toFixed(0).padStart(22)}  ${(r.adaptiveGames / r.allTablesGames).toFixed(3).padStart(5)}  ${r.wrongPairs}/${r.decidedPairs}\n`,
    );
  for (const [k, v] of Object.entries(result)) process.stdout.write(`${k}: ${v}\n`);
}
const ok = result.games_vs_round_robin <= 0.5 && result.wrong_decisions_rate <= 0.05;
process.exitCode = ok ? 0 : 1;
