// standings.csv and games.csv: plain CSVs (header row first, no comment lines) that Python's csv, pandas, R and
// spreadsheets read unchanged.

import { csvText } from '../../core/inert-text.js';
import { gameNumber } from '../../core/seat-label.js';
import type { SeatUsage } from '../results/model-usage.js';
import { countedResult, ratedJudge, type StandingRow, seatPoints } from '../results/stats.js';
import type { ExportInput } from './export-input.js';
import { streamFile } from './export-stream.js';

/**
 * Three decimals, except USD columns, where a local-model cent fraction must not round to 0. Text is made inert and
 * cannot start a spreadsheet formula (core/inert-text.ts).
 */
const csvCell = (value: unknown, digits = 3): string => {
  const scale = 10 ** digits;
  if (value === null || value === undefined) return '';
  return typeof value === 'number' ? String(Math.round(value * scale) / scale) : csvText(String(value));
};

const STANDING_COLUMNS = [
  'rank',
  'rank_best',
  'rank_worst',
  'agent',
  'agent_name',
  'games',
  'wins',
  'draws',
  'losses',
  'points',
  'score_pct',
  'rating',
  'rating_lower',
  'rating_upper',
  'rating_interval',
  'utility',
  'security',
  'tokens',
  'cost_usd',
  'cost_per_game_usd',
  'cost_per_rating_point',
] as const;

/**
 * standings.csv: a header row, then one row per agent and scope (combined, then each challenge). Nothing precedes
 * the header, so Python's csv, pandas, R and spreadsheets read it unchanged; the run manifest is in manifest.json.
 * An empty rating_lower/rating_upper next to a rating means that side is open (see rating_interval).
 */
export function standingsCsv(input: ExportInput): string {
  const lines = [['scope', ...STANDING_COLUMNS].join(',')];
  const add = (scope: string, rows: readonly StandingRow[]) => {
    for (const row of rows) {
      const cells: Record<(typeof STANDING_COLUMNS)[number], unknown> = {
        ...row,
        rank_best: row.rank_range[0],
        rank_worst: row.rank_range[1],
      };
      lines.push([csvCell(scope), ...STANDING_COLUMNS.map((c) => csvCell(cells[c], c.startsWith('cost_') ? 8 : 3))].join(','));
    }
  };
  add('combined', input.stats.standings.combined);
  for (const [challenge, rows] of Object.entries(input.stats.standings.per_challenge)) add(challenge, rows);
  return `${lines.join('\n')}\n`;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * games.csv: a header row, then one row per game attempt (void ones and replays included; `counts` marks each game's
 * latest attempt, `rated` the ones the standings use and `unrated_reason` why another is left out). Games, rounds and
 * seats are numbered from 1, as the app shows them (report.json keeps the 0-based `game_index`). Per seat k: the agent,
 * the counted placement (a forfeit: faulted seats last), the game score (1 / ½ / 0, or the placement percentile),
 * whether it was at fault, security/utility, model tokens and cost, for `widest` seats (the most any attempt had; at
 * least two).
 */
export function writeGamesCsv(file: string, input: ExportInput, redact: (text: string) => string, widest: number): Promise<void> {
  const seats = Math.max(2, widest);
  const seatColumns = Array.from({ length: seats }, (_, k) => [
    `seat${k + 1}_agent`,
    `seat${k + 1}_placement`,
    `seat${k + 1}_score`,
    `seat${k + 1}_faulted`,
    `seat${k + 1}_security`,
    `seat${k + 1}_utility`,
    `seat${k + 1}_tokens`,
    `seat${k + 1}_cost_usd`,
  ]).flat();
  const header = [
    'game',
    'attempt',
    'counts',
    'rated',
    'unrated_reason',
    'challenge',
    'round',
    'seed',
    'pair_of',
    'set_size',
    'seats',
    ...seatColumns,
    'termination',
    'fault',
    'forfeit',
    'faulted_seats',
    'detail',
    'started_at',
    'ended_at',
    'duration_ms',
    'agent_ms',
    'tokens',
    'cost_usd',
    'worker_id',
  ];
  const judge = ratedJudge(input.stats);
  return streamFile(file, redact, async (write) => {
    write(`${header.join(',')}\n`);
    for (const row of input.games.each()) {
      const unrated = judge(row);
      const result = countedResult(row);
      const points = result.placements ? seatPoints(row) : null;
      const usage = (row.usage ?? []) as Array<SeatUsage | null>;
      const perSeat = Array.from({ length: seats }, (_, k) => {
        if (k >= row.seats.length) return ['', '', '', '', '', '', '', ''];
        const u = usage[k] ?? null;
        return [
          input.agentIds[row.seats[k] as number] ?? String(row.seats[k]),
          result.placements?.[k] ?? null,
          points?.[k] ?? null,
          row.faultedSeats.includes(k),
          row.scores?.[k]?.security ?? null,
          row.scores?.[k]?.utility ?? null,
          u ? u.prompt_tokens + u.completion_tokens : null,
          u ? u.cost_usd : null,
        ];
      }).flat();
      const used = usage.filter((u): u is SeatUsage => u !== null);
      const cells = [
        gameNumber(row.gameIndex),
        row.attempt,
        row.counts,
        unrated === null,
        unrated,
        row.challenge,
        row.round + 1,
        row.seed,
        row.swapOf === null ? null : gameNumber(row.swapOf),
        row.setSize,
        row.seats.length,
        ...perSeat,
        row.termination,
        row.fault,
        result.forfeit,
        row.faultedSeats.map((seat) => seat + 1).join(' '),
        row.detail,
        iso(row.startedAt),
        iso(row.endedAt),
        row.endedAt - row.startedAt,
        row.agentMs,
        used.length > 0 ? used.reduce((a, u) => a + u.prompt_tokens + u.completion_tokens, 0) : null,
        used.length > 0 ? used.reduce((a, u) => a + u.cost_usd, 0) : null,
        row.workerId ?? '',
      ];
      write(`${cells.map((c, i) => csvCell(c, header[i]?.endsWith('cost_usd') ? 8 : 3)).join(',')}\n`);
      await input.games.pace();
    }
  });
}
