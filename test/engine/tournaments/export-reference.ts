// The exports as they were written before streaming (whole files built in memory from every game), kept as the
// reference the streamed exports must equal byte for byte (flat-costs.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { describeIsolation } from '../../../engine/contract/isolation.js';
import type { UsageTotals } from '../../../engine/contract/usage-line.js';
import {
  eloIntervalText,
  INTERVAL_METHOD,
  INTERVAL_NOTE,
  isRated,
  partitionForRatings,
  RANK_LEGEND,
  RATED_GAMES_RULE,
  rankText,
  type Termination,
  unitKey,
} from '../../../engine/core/ratings/index.js';
import type { Store, StoredTournament, StoredTournamentGame } from '../../../engine/db/store.js';
import { ensurePrivateDir, PRIVATE_FILE_MODE, tightenIfPresent, writePrivateFile } from '../../../engine/runtime/private-files.js';
import { type LocalRoot, pathRedactor } from '../../../engine/tournaments/exports/path-redaction.js';
import { agentUsage, type SeatUsage } from '../../../engine/tournaments/results/model-usage.js';
import {
  countedResult,
  finalGames,
  gameRecord,
  type RunStatistics,
  ratingsForExport,
  type StandingRow,
  seatPoints,
} from '../../../engine/tournaments/results/stats.js';

export interface ExportInput {
  store: Store;
  tournament: StoredTournament;
  agentIds: readonly string[];
  stats: RunStatistics;
  summary: Record<string, unknown> | null;
  /** Local folders to keep out of the files (see path-redaction.ts); none: written as they are. */
  roots?: readonly LocalRoot[];
}

export function reportDir(dataDir: string, tournamentId: string): string {
  return path.join(dataDir, 'reports', tournamentId);
}

function gameEntry(row: StoredTournamentGame, agentIds: readonly string[]) {
  return {
    id: `${row.tournamentId}/${row.gameIndex}`,
    game_index: row.gameIndex,
    attempt: row.attempt,
    key: row.gameKey,
    challenge: row.challenge,
    round: row.round,
    seats: row.seats.map((a) => agentIds[a] ?? String(a)),
    seed: row.seed,
    swap_of: row.swapOf,
    set_size: row.setSize,
    session_id: row.sessionId,
    /** What the game counts as (a forfeit: faulted seats last), as the standings and every view read it. */
    placements: countedResult(row).placements,
    forfeit: countedResult(row).forfeit,
    /** The raw record: what the challenge reported and who was at fault. */
    result: { placements: row.placements, faulted_seats: row.faultedSeats },
    scores: row.scores,
    model_usage: row.usage ?? null,
    isolation: row.isolation ?? null,
    termination: row.termination,
    fault: row.fault,
    detail: row.detail,
    started_at: row.startedAt,
    ended_at: row.endedAt,
    worker_id: row.workerId ?? null,
    worker_key: row.workerKey ?? null,
    worker_signature: row.workerSignature ?? null,
  };
}

/** Why each attempt is not rated (null: rated), from the whole list at once: partitionForRatings over the rows. */
function unratedReasons(rows: readonly StoredTournamentGame[]): Map<number, string | null> {
  const records = rows.map((row) => ({ ...gameRecord(row), seq: row.seq }));
  const { rated, incompleteUnits } = partitionForRatings(records);
  const ratedSeqs = new Set(rated.map((r) => r.seq));
  const incomplete = new Set(incompleteUnits);
  return new Map(
    records.map((r) => [
      r.seq,
      !isRated(r.termination)
        ? 'void'
        : ratedSeqs.has(r.seq)
          ? null
          : incomplete.has(unitKey(r)) &&
              !records.some((o) => o.seq < r.seq && unitKey(o) === unitKey(r) && o.seats.join() === r.seats.join())
            ? 'incomplete_set'
            : 'repeated_seat_order',
    ]),
  );
}

export function buildReport(input: ExportInput) {
  const { tournament, agentIds, stats, store } = input;
  const rows = store.tournaments.games(tournament.id);
  const finals = new Set(finalGames(rows).map((r) => r.seq));
  const unrated = unratedReasons(rows);
  return {
    id: tournament.id,
    name: tournament.name,
    status: tournament.status,
    stop_reason: tournament.stopReason,
    // The definition as the run manifest holds it (portable manifest paths), not as this machine stored it.
    spec: (tournament.manifest as { spec?: unknown }).spec ?? null,
    manifest: tournament.manifest,
    manifest_hash: tournament.manifestHash,
    standings: withUsage(stats.standings, agentIds, rows),
    ratings: { ...ratingsForExport(stats.ratings), sprt: stats.sprt, format: input.summary },
    terminations: stats.terminations,
    rated_games: stats.rated_games,
    warnings: stats.warnings,
    games: rows.map((row) => ({
      ...gameEntry(row, agentIds),
      counts: finals.has(row.seq),
      rated: unrated.get(row.seq) === null,
      unrated_reason: unrated.get(row.seq) ?? null,
    })),
  };
}

/** Adds each agent's model-usage totals (every attempt it sat in: void games cost too) to the combined standings. */
function withUsage(standings: RunStatistics['standings'], agentIds: readonly string[], rows: readonly StoredTournamentGame[]) {
  const usage = agentUsage(rows, agentIds.length);
  if (usage.every((u) => u === null)) return standings;
  const byId = new Map(agentIds.map((id, i) => [id, usage[i] ?? null]));
  return { ...standings, combined: standings.combined.map((row) => ({ ...row, model_usage: byId.get(row.agent) ?? null })) };
}

const fallbackText = (fallbacks: Partial<Record<string, number>>): string =>
  Object.entries(fallbacks)
    .map(([cause, n]) => `${cause} ${n}`)
    .join(', ') || '—';
/** Calls without an answer, by why: timeout, rate_limited, provider_error. */
const failedCalls = (outcomes: UsageTotals['outcomes']): string =>
  Object.entries(outcomes ?? {})
    .filter(([outcome]) => outcome !== 'ok')
    .map(([outcome, n]) => `${outcome} ${n}`)
    .join(', ') || '—';
const meanLatency = (u: { calls: number; latency_ms: number }): string => (u.calls > 0 ? String(Math.round(u.latency_ms / u.calls)) : '—');
/** Per-game rows in report.md stop here; report.json has every game. */
const MD_GAME_ROWS = 200;

/** How each agent's processes were isolated, over every attempt it sat in (one line per distinct isolation). */
function isolationTable(agentIds: readonly string[], rows: readonly StoredTournamentGame[]): string[] {
  const seen = agentIds.map(() => new Set<string>());
  for (const row of rows)
    for (const [seat, iso] of (row.isolation ?? []).entries()) seen[row.seats[seat] as number]?.add(describeIsolation(iso));
  if (seen.every((s) => s.size === 0)) return [];
  const lines = ['## Isolation', '', '| Agent | Isolation applied |', '|---|---|'];
  agentIds.forEach((id, i) => {
    for (const line of seen[i] ?? []) lines.push(`| ${id} | ${line} |`);
  });
  return [...lines, ''];
}

function usageTable(agentIds: readonly string[], rows: readonly StoredTournamentGame[]): string[] {
  const usage = agentUsage(rows, agentIds.length);
  if (usage.every((u) => u === null)) return [];
  const out = [
    '## Model usage',
    '',
    '| Agent | Games | Calls | Retries | Rethinks | Failed calls | Prompt tokens | Completion tokens | Latency / call (ms) | Cost (USD) | Cost / game (USD) | Fallbacks |',
    '|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|',
  ];
  agentIds.forEach((id, i) => {
    const u = usage[i];
    if (!u) return;
    out.push(
      `| ${id} | ${u.games} | ${u.calls} | ${u.retries ?? 0} | ${u.rethinks ?? 0} | ${failedCalls(u.outcomes)} | ${u.prompt_tokens} | ${u.completion_tokens} | ${meanLatency(u)} | ${u.cost_usd.toFixed(4)} | ${u.cost_per_game_usd.toFixed(4)} | ${fallbackText(u.fallbacks)} |`,
    );
  });
  out.push(
    '',
    'Counted over every attempt, void ones included (their calls were paid for). Fallback causes model_unparsable, model_illegal and model_timeout are the model’s faults; provider_error is the provider’s or the harness’s.',
    '',
  );
  out.push('### Per game', '', '| Game | Attempt | Agent | Calls | Tokens | Latency / call (ms) | Cost (USD) | Fallbacks |');
  out.push('|---:|---:|---|---:|---:|---:|---:|---|');
  let shown = 0;
  let withUsage = 0;
  for (const row of rows) {
    if (!row.usage?.some((u) => u)) continue;
    withUsage++;
    if (shown >= MD_GAME_ROWS) continue;
    shown++;
    row.usage.forEach((raw, seat) => {
      if (!raw) return;
      const u = raw as SeatUsage;
      const agent = agentIds[row.seats[seat] ?? -1] ?? String(row.seats[seat]);
      out.push(
        `| ${row.gameIndex + 1} | ${row.attempt} | ${agent} | ${u.calls} | ${u.prompt_tokens + u.completion_tokens} | ${meanLatency(u)} | ${u.cost_usd.toFixed(4)} | ${fallbackText(u.fallbacks)} |`,
      );
    });
  }
  if (withUsage > shown) out.push('', `${withUsage - shown} more games with model usage: see report.json.`);
  out.push('');
  return out;
}

/** Three decimals, except USD columns, where a local-model cent fraction must not round to 0. */
const csvCell = (value: unknown, digits = 3): string => {
  const scale = 10 ** digits;
  const text =
    value === null || value === undefined ? '' : typeof value === 'number' ? String(Math.round(value * scale) / scale) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
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
 * games.csv: a header row, then one row per game attempt (void ones and replays included; `counts` marks the attempt
 * the statistics use). Per seat k: the agent, the counted placement (a forfeit: faulted seats last), the game score
 * (1 / ½ / 0, or the placement percentile), whether it was at fault, security/utility, model tokens and cost.
 */
export function gamesCsv(input: ExportInput): string {
  const rows = input.store.tournaments.games(input.tournament.id);
  const finals = new Set(finalGames(rows).map((r) => r.seq));
  const unrated = unratedReasons(rows);
  const seats = Math.max(2, ...rows.map((r) => r.seats.length));
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
  const lines = [header.join(',')];
  for (const row of rows) {
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
      row.gameIndex + 1,
      row.attempt,
      finals.has(row.seq),
      unrated.get(row.seq) === null,
      unrated.get(row.seq) ?? null,
      row.challenge,
      row.round + 1,
      row.seed,
      row.swapOf === null ? null : row.swapOf + 1,
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
    lines.push(cells.map((c, i) => csvCell(c, header[i]?.endsWith('cost_usd') ? 8 : 3)).join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** manifest.json: the run manifest and its hash, beside the CSVs (they carry no comment lines). */
export function manifestJson(input: ExportInput): string {
  const t = input.tournament;
  return `${JSON.stringify({ tournament_id: t.id, manifest_hash: t.manifestHash, manifest: t.manifest }, null, 2)}\n`;
}

const fmt = (x: number | null, digits = 1): string => (x === null ? '—' : x.toFixed(digits));

/** How the numbers were made, printed under the standings of every report.md. */
const RATING_METHOD_NOTE = [
  `Ratings: ${INTERVAL_METHOD}`,
  INTERVAL_NOTE,
  RANK_LEGEND,
  'Head to head: Elo from the mean score (fastchess definitions); its 95% interval is a Wilson score interval scaled by the observed variance ratio, so a perfect record gives a one-sided bound ("> +198") and never ±∞.',
];

/** Shown only when some agent of the table made model calls, so scripted-only tournaments keep the short table. */
const COST_HEADER = ' Tokens | Cost (USD) | USD / rating point |';
const usd = (x: number | null): string => (x === null ? '—' : x.toPrecision(3));

function standingsTable(rows: readonly StandingRow[]): string[] {
  const costs = rows.some((r) => r.cost_usd !== null);
  const out = [
    `| Rank | Agent | Games | W | D | L | Score % | Rating (95% CI) | Utility | Security |${costs ? COST_HEADER : ''}`,
    `|---:|---|---:|---:|---:|---:|---:|---|---:|---:|${costs ? '---:|---:|---:|' : ''}`,
  ];
  for (const r of rows) {
    const range = rankText(r.rank, r.rank_range);
    const rating = r.rating_interval ?? '—';
    const cost = costs ? ` ${r.tokens ?? '—'} | ${usd(r.cost_usd)} | ${usd(r.cost_per_rating_point)} |` : '';
    out.push(
      `| ${range} | ${r.agent} | ${r.games} | ${r.wins} | ${r.draws} | ${r.losses} | ${fmt(r.score_pct)} | ${rating} | ${fmt(r.utility, 2)} | ${fmt(r.security, 2)} |${cost}`,
    );
  }
  return out;
}

export function reportMarkdown(input: ExportInput): string {
  const { tournament, stats } = input;
  const lines = [`# Tournament: ${tournament.name}`, ''];
  lines.push(`- Id: \`${tournament.id}\``, `- Status: ${tournament.status}${tournament.stopReason ? ` (${tournament.stopReason})` : ''}`);
  lines.push(`- Run manifest: \`${tournament.manifestHash}\``, `- Seed: \`${String(tournament.spec.seed)}\``);
  const total = Object.values(stats.terminations).reduce((a, b) => a + b, 0);
  const voidAttempts = Object.entries(stats.terminations).reduce((a, [t, n]) => a + (isRated(t as Termination) ? 0 : n), 0);
  lines.push(`- Rated: ${stats.rated_games.text}; ${tournament.plannedGames} planned`);
  lines.push(`- Game attempts: ${total}, of which void (replayed, never rated): ${voidAttempts}`);
  if (stats.rated_games.finished > stats.rated_games.rated) lines.push(`- ${RATED_GAMES_RULE}`);
  lines.push('');
  if (stats.warnings.length > 0) lines.push('## Warnings', '', ...stats.warnings.map((w) => `- ⚠ ${w}`), '');
  lines.push('## Standings (all challenges)', '', ...standingsTable(stats.standings.combined), '');
  lines.push(...RATING_METHOD_NOTE, '');
  if (stats.standings.combined.some((r) => r.cost_usd !== null))
    lines.push(
      "USD / rating point: the agent's model spend per game divided by the Elo points it stands above the weakest-rated agent (— when undefined: no spend recorded, no rating, or the weakest agent itself).",
      '',
    );
  const challenges = Object.entries(stats.standings.per_challenge);
  if (challenges.length > 1) for (const [c, rows] of challenges) lines.push(`## ${c}`, '', ...standingsTable(rows), '');
  const h2h = stats.ratings.headToHead?.combined;
  if (h2h) {
    const [a, b] = input.agentIds;
    lines.push(`## Head to head: ${a} vs ${b}`, '');
    lines.push(
      `- W/D/L: ${h2h.wdl.wins}/${h2h.wdl.draws}/${h2h.wdl.losses}; pentanomial [LL, LD, DD+WL, WD, WW]: [${h2h.pentanomial.join(', ')}]`,
    );
    const est = h2h.pairs ?? h2h.trinomial;
    if (est)
      lines.push(
        `- Elo ${eloIntervalText(est)} (95%, ${h2h.pairs ? `${est.count} pairs` : `${est.count} games`}), nElo ${fmt(est.nElo)} ± ${fmt(est.nEloError)}, LOS ${fmt(est.los * 100)}%`,
      );
    lines.push('');
  }
  if (stats.sprt)
    lines.push(
      '## GSPRT',
      '',
      `- LLR ${stats.sprt.llr.toFixed(3)} in [${stats.sprt.lower.toFixed(3)}, ${stats.sprt.upper.toFixed(3)}]: ${stats.sprt.decision}`,
      '',
    );
  lines.push(...usageTable(input.agentIds, input.store.tournaments.games(tournament.id)));
  lines.push(...isolationTable(input.agentIds, input.store.tournaments.games(tournament.id)));
  lines.push('## Terminations', '', '| Termination | Attempts |', '|---|---:|');
  for (const [t, n] of Object.entries(stats.terminations).sort()) lines.push(`| ${t} | ${n} |`);
  lines.push('', '## Run manifest', '', '```json', JSON.stringify(tournament.manifest, null, 2), '```', '');
  return lines.join('\n');
}

/** One line per event: run manifest first, then per game its start, every message with indices, and its end. */
export function writeEventsJsonl(file: string, input: ExportInput, redact: (text: string) => string = (t) => t): void {
  const fd = fs.openSync(file, 'w', PRIVATE_FILE_MODE);
  try {
    const write = (value: unknown) => fs.writeSync(fd, redact(`${JSON.stringify(value)}\n`));
    write({ event: 'manifest', tournament_id: input.tournament.id, manifest: input.tournament.manifest });
    for (const row of input.store.tournaments.games(input.tournament.id)) {
      const base = { tournament_id: row.tournamentId, game_index: row.gameIndex, attempt: row.attempt };
      write({
        event: 'game_started',
        ...base,
        at: row.startedAt,
        challenge: row.challenge,
        seats: row.seats.map((a) => input.agentIds[a]),
        seed: row.seed,
        session_id: row.sessionId,
      });
      for (const entry of input.store.tournaments.transcript(row.tournamentId, row.seq) as Array<Record<string, unknown>>) {
        if (entry.channel === 'model') {
          const { kind, ...data } = (entry.data ?? {}) as Record<string, unknown>;
          if (kind === 'fallback') {
            const { fallback_cause, ...rest } = data;
            write({
              event: 'model_fallback',
              ...base,
              index: entry.index,
              at: entry.timestamp,
              seat: entry.from,
              cause: fallback_cause,
              ...rest,
            });
            continue;
          }
          write({
            event: 'model_turn',
            ...base,
            index: entry.index,
            at: entry.timestamp,
            seat: entry.from,
            ...data,
            completion: entry.content,
          });
          continue;
        }
        if (entry.channel === 'match') {
          const { index, timestamp, event_seq, content, is_auto, visibility, data } = entry;
          write({ event: 'match_event', ...base, index, at: timestamp, event_seq, type: content, is_auto, visibility, data });
          continue;
        }
        const fromSeat = typeof entry.from === 'number';
        const kind =
          entry.channel === 'operator' ? (fromSeat ? 'player_action' : 'operator_message') : fromSeat ? 'player_chat' : 'operator_chat';
        write({ event: kind, ...base, index: entry.index, at: entry.timestamp, from: entry.from, to: entry.to, content: entry.content });
      }
      write({
        event: 'game_ended',
        ...base,
        at: row.endedAt,
        termination: row.termination,
        fault: row.fault,
        faulted_seats: row.faultedSeats,
        placements: row.placements,
        scores: row.scores,
        isolation: row.isolation ?? null,
      });
    }
  } finally {
    fs.closeSync(fd);
  }
}

export function writeExports(dataDir: string, input: ExportInput): string {
  const dir = reportDir(dataDir, input.tournament.id);
  ensurePrivateDir(path.dirname(dir));
  ensurePrivateDir(dir);
  const redact = pathRedactor(input.roots ?? []);
  const write = (name: string, text: string) => writePrivateFile(path.join(dir, name), redact(text));
  write('report.json', `${JSON.stringify(buildReport(input), null, 2)}\n`);
  writeEventsJsonl(path.join(dir, 'events.jsonl'), input, redact);
  tightenIfPresent(path.join(dir, 'events.jsonl'));
  write('report.md', reportMarkdown(input));
  write('standings.csv', standingsCsv(input));
  write('games.csv', gamesCsv(input));
  write('manifest.json', manifestJson(input));
  return dir;
}
