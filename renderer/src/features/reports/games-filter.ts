// The tournament games table: results per game or per agent, the filters and free-text search, and a CSV of the rows
// the researcher is looking at. Pure, so the rules are unit-tested.
import type { TournamentGame } from '../../../../engine/contract/tournament.js';
import { resultText } from '../../ui/game-result.js';

/** Without an agent: decisive / draw / none. For an agent that sat in the game: win / draw / loss / none. */
export type GameResult = 'win' | 'loss' | 'draw' | 'decisive' | 'none';

export type Row = Pick<
  TournamentGame,
  | 'gameIndex'
  | 'challenge'
  | 'seat_agents'
  | 'placements'
  | 'forfeit'
  | 'termination'
  | 'fault'
  | 'detail'
  | 'startedAt'
  | 'endedAt'
  | 'attempt'
> &
  Partial<Pick<TournamentGame, 'scores' | 'workerId'>>;

export function gameResult(game: Row, agent?: string): GameResult {
  const placements = game.placements;
  if (!placements || placements.length === 0) return 'none';
  const best = Math.min(...placements);
  const winners = placements.filter((p) => p === best).length;
  if (agent === undefined) return winners === placements.length ? 'draw' : 'decisive';
  const mine = game.seat_agents.flatMap((a, seat) => (a === agent ? [placements[seat] ?? Number.POSITIVE_INFINITY] : []));
  if (mine.length === 0) return 'none';
  const own = Math.min(...mine);
  if (own !== best) return 'loss';
  return winners === 1 ? 'win' : 'draw';
}

export interface GameFilters {
  agent: string;
  termination: string;
  result: '' | GameResult;
  /** The game worker that played the game ('' = any). */
  worker: string;
  search: string;
}

export const NO_FILTERS: GameFilters = { agent: '', termination: '', result: '', worker: '', search: '' };

export function filterGames<T extends Row>(games: readonly T[], filters: GameFilters): T[] {
  const needle = filters.search.trim().toLowerCase();
  return games.filter((g) => {
    if (filters.agent && !g.seat_agents.includes(filters.agent)) return false;
    if (filters.termination && g.termination !== filters.termination) return false;
    if (filters.result && gameResult(g, filters.agent || undefined) !== filters.result) return false;
    if (filters.worker && g.workerId !== filters.worker) return false;
    if (needle) {
      const haystack = [...g.seat_agents, g.challenge, g.termination, g.fault, g.detail, g.workerId ?? ''].join('\n').toLowerCase();
      if (!haystack.includes(needle)) return false;
    }
    return true;
  });
}

/** Result choices that make sense for the current agent filter. */
export function resultOptions(agent: string): Array<{ value: GameResult; label: string }> {
  return agent
    ? [
        { value: 'win', label: 'Win' },
        { value: 'draw', label: 'Draw' },
        { value: 'loss', label: 'Loss' },
        { value: 'none', label: 'No result' },
      ]
    : [
        { value: 'decisive', label: 'Decisive' },
        { value: 'draw', label: 'Draw' },
        { value: 'none', label: 'No result' },
      ];
}

export function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => a.localeCompare(b));
}

/** RFC 4180: fields with commas, quotes or line breaks are quoted, quotes doubled. */
export function csvField(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Per seat, in seat order: "0.80 / 1.00" for a game whose challenge reports SpecArena scores; null without them. */
export function seatScoreText(scores: Row['scores'] | undefined, key: 'security' | 'utility'): string | null {
  if (!scores || scores.length === 0) return null;
  return scores.map((s) => (Number.isFinite(s[key]) ? s[key].toFixed(2) : '–')).join(' / ');
}

export function gamesCsv(games: readonly Row[]): string {
  const header = [
    'game',
    'attempt',
    'challenge',
    'seats',
    'placements',
    'result',
    'security',
    'utility',
    'termination',
    'fault',
    'detail',
    'duration_ms',
  ];
  const lines = games.map((g) =>
    [
      g.gameIndex,
      g.attempt,
      g.challenge,
      g.seat_agents.join(' vs '),
      g.placements ? g.placements.join(' ') : null,
      resultText(g.seat_agents, g.placements, g.forfeit),
      seatScoreText(g.scores, 'security'),
      seatScoreText(g.scores, 'utility'),
      g.termination,
      g.fault,
      g.detail,
      g.endedAt - g.startedAt,
    ]
      .map(csvField)
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}
