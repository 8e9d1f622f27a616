// report.md: the run for a reader — standings, how the ratings were made, head to head, model usage, isolation.

import { describeIsolation } from '../../contract/isolation.js';
import type { UsageTotals } from '../../contract/usage-line.js';
import {
  eloIntervalText,
  INTERVAL_METHOD,
  INTERVAL_NOTE,
  isRated,
  RANK_LEGEND,
  RATED_GAMES_RULE,
  rankText,
  type Termination,
} from '../../core/ratings/index.js';
import { gameNumber } from '../../core/seat-label.js';
import type { ModelServerUse } from '../results/model-server-use.js';
import type { AgentUsage, SeatUsage } from '../results/model-usage.js';
import type { StandingRow } from '../results/stats.js';
import { adaptiveMarkdown } from './adaptive-report.js';
import type { ExportGames, ExportInput } from './export-input.js';

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

/** What report.md needs of the games, gathered in one pass over them. */
interface GameFacts {
  /** Per agent, each distinct isolation its processes ran under, over every attempt it sat in. */
  isolation: Set<string>[];
  /** The per-game usage table's rows, of the first MD_GAME_ROWS games with model usage. */
  usageRows: string[];
  gamesWithUsage: number;
}

async function gameFacts(agentIds: readonly string[], games: ExportGames): Promise<GameFacts> {
  const facts: GameFacts = { isolation: agentIds.map(() => new Set<string>()), usageRows: [], gamesWithUsage: 0 };
  for (const row of games.each()) {
    for (const [seat, iso] of (row.isolation ?? []).entries()) facts.isolation[row.seats[seat] as number]?.add(describeIsolation(iso));
    if (row.usage?.some((u) => u) && ++facts.gamesWithUsage <= MD_GAME_ROWS)
      row.usage.forEach((raw, seat) => {
        if (!raw) return;
        const u = raw as SeatUsage;
        const agent = agentIds[row.seats[seat] ?? -1] ?? String(row.seats[seat]);
        facts.usageRows.push(
          `| ${gameNumber(row.gameIndex)} | ${row.attempt} | ${agent} | ${u.calls} | ${u.prompt_tokens + u.completion_tokens} | ${meanLatency(u)} | ${u.cost_usd.toFixed(4)} | ${fallbackText(u.fallbacks)} |`,
        );
      });
    await games.pace();
  }
  return facts;
}

/** How each agent's processes were isolated, over every attempt it sat in (one line per distinct isolation). */
function isolationTable(agentIds: readonly string[], seen: readonly Set<string>[]): string[] {
  if (seen.every((s) => s.size === 0)) return [];
  const lines = ['## Isolation', '', '| Agent | Isolation applied |', '|---|---|'];
  agentIds.forEach((id, i) => {
    for (const line of seen[i] ?? []) lines.push(`| ${id} | ${line} |`);
  });
  return [...lines, ''];
}

/** Each model server's load: the engine never sent it more than `capacity` requests at once. */
function modelServerTable(servers: readonly ModelServerUse[] | null): string[] {
  if (!servers) return [];
  const out = [
    '## Model servers',
    '',
    '| Server | Capacity | Calls | Cache hits | Utilisation | Queued mean (ms) | Queued max (ms) |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of servers)
    out.push(
      `| ${s.server} | ${s.capacity || '—'} | ${s.calls} | ${s.cache_hits} | ${(s.utilisation * 100).toFixed(1)}% | ${s.queued_ms_mean} | ${s.queued_ms_max} |`,
    );
  return [...out, ''];
}

function usageTable(agentIds: readonly string[], usage: ReadonlyArray<AgentUsage | null>, facts: GameFacts): string[] {
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
  out.push('|---:|---:|---|---:|---:|---:|---:|---|', ...facts.usageRows);
  const shown = Math.min(facts.gamesWithUsage, MD_GAME_ROWS);
  if (facts.gamesWithUsage > shown) out.push('', `${facts.gamesWithUsage - shown} more games with model usage: see report.json.`);
  out.push('');
  return out;
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

export async function reportMarkdown(input: ExportInput): Promise<string> {
  const { tournament, stats } = input;
  const lines = [`# Tournament: ${tournament.name}`, ''];
  lines.push(`- Id: \`${tournament.id}\``, `- Status: ${tournament.status}${tournament.stopReason ? ` (${tournament.stopReason})` : ''}`);
  lines.push(`- Run manifest: \`${tournament.manifestHash}\``, `- Seed: \`${String(tournament.spec.seed)}\``);
  const attempts = Object.entries(stats.terminations);
  const total = attempts.reduce((a, [, n]) => a + n, 0);
  const voidAttempts = attempts.reduce((a, [t, n]) => a + (isRated(t as Termination) ? 0 : n), 0);
  const rated = stats.rated_games;
  lines.push(`- Rated: ${rated.text}; ${tournament.plannedGames} planned`);
  lines.push(`- Game attempts: ${total}, of which void (replayed, never rated): ${voidAttempts}`);
  if (rated.finished > rated.rated) lines.push(`- ${RATED_GAMES_RULE}`);
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
  lines.push(...adaptiveMarkdown(input.summary));
  const facts = await gameFacts(input.agentIds, input.games);
  lines.push(...usageTable(input.agentIds, input.usage, facts));
  lines.push(...modelServerTable(input.modelServers ?? null));
  lines.push(...isolationTable(input.agentIds, facts.isolation));
  lines.push('## Terminations', '', '| Termination | Attempts |', '|---|---:|');
  for (const [t, n] of Object.entries(stats.terminations).sort()) lines.push(`| ${t} | ${n} |`);
  lines.push('', '## Run manifest', '', '```json', JSON.stringify(tournament.manifest, null, 2), '```', '');
  return lines.join('\n');
}
