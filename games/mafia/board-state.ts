// Mafia on the match viewer's board: the table with who is alive, the phase and day, the day's votes, and the
// roles — of the dead as they are revealed, of everyone once the game is over.
import {
  asNumber,
  asRecord,
  type BoardContext,
  type BoardModel,
  clawName,
  clawSeat,
  dataOf,
  matchEvents,
  runtimeSentence,
  seatName,
} from '../../engine/core/board.js';

export interface MafiaSeat {
  seat: number;
  alive: boolean;
  /** "night kill on day 1", "voted out on day 2". */
  fate: string | null;
  role: string | null;
  /** Whom it voted for in the current day's vote. */
  vote: string | null;
  votesAgainst: number;
}

export interface MafiaBoard {
  phase: string | null;
  day: number | null;
  seats: MafiaSeat[];
  /** The latest night or vote outcome, in words. */
  news: string | null;
  winner: string | null;
  over: boolean;
}

function fateOf(cause: unknown, day: unknown): string {
  return `${cause === 'vote' ? 'voted out' : 'killed at night'} on day ${asNumber(day) ?? '?'}`;
}

function outcomeText(ctx: BoardContext, e: Record<string, unknown>): string | null {
  switch (e.type) {
    case 'killed':
      return `${clawName(ctx, e.agent_id, e.name)} was killed in the night (${e.role}).`;
    case 'no_death':
      return 'Nobody died in the night.';
    case 'eliminated':
      return `${clawName(ctx, e.agent_id, e.name)} was voted out (${e.role}).`;
    case 'runoff':
      return `A tie: runoff between ${(Array.isArray(e.candidates) ? e.candidates : []).map((c) => clawName(ctx, asRecord(c)?.agent_id, asRecord(c)?.name)).join(' and ')}.`;
    case 'no_elimination':
      return `Nobody was voted out (${String(e.reason ?? '').replace(/_/g, ' ')}).`;
    default:
      return null;
  }
}

const eventsOf = (d: Record<string, unknown>) => (Array.isArray(d.events) ? d.events : []).map((e) => asRecord(e) ?? {});

export const mafiaBoard: BoardModel<MafiaBoard> = {
  id: 'mafia',
  board(lines, upto, ctx) {
    const seats: MafiaSeat[] = ctx.seatAgents.map((_, seat) => ({
      seat,
      alive: true,
      fate: null,
      role: null,
      vote: null,
      votesAgainst: 0,
    }));
    const board: MafiaBoard = { phase: null, day: null, seats, news: null, winner: null, over: false };
    const at = (agent: unknown) => {
      const seat = clawSeat(ctx, agent);
      return seat === undefined ? undefined : seats[seat];
    };
    for (const e of matchEvents(lines, upto)) {
      const d = dataOf(e);
      if (e.content === 'phase_started') {
        board.phase = typeof d.phase === 'string' ? d.phase : null;
        board.day = asNumber(d.day_number);
        if (board.phase === 'vote' || board.phase === 'night')
          for (const s of seats) {
            s.vote = null;
            s.votesAgainst = 0;
          }
      }
      if (e.content === 'vote_submitted') {
        const voter = at(d.agent_id);
        const target = asRecord(d.target);
        if (voter) voter.vote = target ? clawName(ctx, target.agent_id, target.name) : 'abstain';
        const against = target ? at(target.agent_id) : undefined;
        if (against) against.votesAgainst++;
      }
      if (e.content === 'night_result' || e.content === 'vote_result') {
        const texts: string[] = [];
        for (const x of eventsOf(d)) {
          if (x.type === 'killed' || x.type === 'eliminated') {
            const s = at(x.agent_id);
            if (s) {
              s.alive = false;
              s.fate = fateOf(x.cause, x.day);
              s.role = typeof x.role === 'string' ? x.role : s.role;
            }
          }
          const text = outcomeText(ctx, x);
          if (text) texts.push(text);
        }
        board.news = texts.join(' ') || null;
      }
      if (e.content === 'game_over') {
        board.over = true;
        board.phase = 'over';
        board.winner = typeof d.winner === 'string' ? d.winner : null;
        for (const r of Array.isArray(d.roles) ? d.roles : []) {
          const s = at(asRecord(r)?.agent_id);
          if (s && typeof asRecord(r)?.role === 'string') s.role = asRecord(r)?.role as string;
        }
      }
    }
    return board;
  },
  sentence(line, ctx) {
    if (line.channel !== 'match') return null;
    const d = dataOf(line);
    const target = asRecord(d.target);
    switch (line.content) {
      case 'role_assigned': {
        const seat = Array.isArray(line.visibility) ? line.visibility[0] : undefined;
        return `${seat === undefined ? 'A player' : seatName(seat, ctx)} is dealt the role ${d.role}.`;
      }
      case 'phase_started':
        return `Day ${d.day_number}: the ${d.phase === 'discuss' ? 'discussion' : d.phase} phase starts.`;
      case 'night_action_submitted':
        return `${clawName(ctx, d.agent_id, d.name)} picks ${target ? clawName(ctx, target.agent_id, target.name) : 'nobody'} for the night.`;
      case 'investigation_result':
        return `The detective learns that ${clawName(ctx, d.agent_id, d.name)} is ${d.result}.`;
      case 'protection_result':
        return `The doctor protected ${clawName(ctx, d.agent_id, d.name)}${d.attack_blocked === true ? ' and blocked the attack' : ''}.`;
      case 'chat':
        return `${clawName(ctx, d.agent_id, d.name)}: “${d.message}”`;
      case 'chat_skipped':
        return `${clawName(ctx, d.agent_id, d.name)} says nothing.`;
      case 'vote_submitted':
        return `${clawName(ctx, d.agent_id, d.name)} votes for ${target ? clawName(ctx, target.agent_id, target.name) : 'nobody'}.`;
      case 'night_result':
      case 'vote_result':
        return eventsOf(d)
          .map((x) => outcomeText(ctx, x))
          .filter((t): t is string => t !== null)
          .join(' ');
      case 'game_over':
        return `The game is over: the ${d.winner} side wins (${String(d.finish_reason ?? '').replace(/_/g, ' ')}).`;
      default:
        return runtimeSentence(line, ctx);
    }
  },
};
