// Reading a SpecArena game's recorded lines for its board view: who sent an action, which seat an invite is, and
// the operator lines every challenge shares ("Player <invite> sent a guess", "Game ended. Scores are: …").
import { type BoardContext, type BoardLine, seatName } from '../../engine/core/board.js';

/** A seat's action to the operator: `(type) content` as the engine logs it. */
export function actionOf(line: BoardLine): { seat: number; type: string; content: string } | null {
  if (line.channel !== 'operator' || typeof line.from !== 'number') return null;
  const m = /^\((\w[\w-]*)\) ?([\s\S]*)$/.exec(line.content);
  return m ? { seat: line.from, type: m[1] as string, content: m[2] ?? '' } : null;
}

/** An operator line (public, or a DM to one seat); null for anything else or text withheld from this reader. */
export function operatorLine(line: BoardLine): { to: number | null; text: string } | null {
  if (line.channel !== 'operator' || line.from !== 'operator' || line.redacted) return null;
  if (line.to !== null && typeof line.to !== 'number') return null;
  return { to: line.to, text: line.content };
}

/** A private line to one seat that this reader may not see yet (a live game before its end). */
export function isHiddenDm(line: BoardLine): boolean {
  return line.channel === 'operator' && line.from === 'operator' && typeof line.to === 'number' && line.redacted === true;
}

export function seatOfInvite(invite: string, ctx: BoardContext): number | undefined {
  const seat = ctx.invites.indexOf(invite.trim());
  return seat >= 0 ? seat : undefined;
}

/** Replaces every invite in a text by its seat's name. */
export function nameInvites(text: string, ctx: BoardContext): string {
  let out = text;
  ctx.invites.forEach((invite, seat) => {
    if (invite.length >= 8 && out.includes(invite)) out = out.split(invite).join(seatName(seat, ctx));
  });
  return out;
}

/**
 * Operators number players in join order ("Player 2"); the tournament starts seats in seat order, each after the
 * previous one joined, so player k sat in seat k.
 */
export function playerSeat(player: number): number {
  return player - 1;
}

export interface FinalScore {
  seat: number;
  security: number | null;
  utility: number | null;
}

/** The engine's closing line "Game ended.\n\nScores are:\n- Player 1: {…}". */
export function finalScores(text: string): FinalScore[] | null {
  if (!text.startsWith('Game ended.')) return null;
  const out: FinalScore[] = [];
  for (const m of text.matchAll(/- Player (\d+): (\{[^\n]*\})/g)) {
    try {
      const score = JSON.parse(m[2] as string) as { security?: unknown; utility?: unknown };
      out.push({
        seat: playerSeat(Number(m[1])),
        security: typeof score.security === 'number' ? score.security : null,
        utility: typeof score.utility === 'number' ? score.utility : null,
      });
    } catch {
      // A score the engine did not write as JSON is left out.
    }
  }
  return out;
}

const signed = (n: number | null) => (n === null ? '–' : n > 0 ? `+${n}` : String(n));

/** Readable sentences for the lines every SpecArena challenge shares; null for the rest. */
export function commonSentence(line: BoardLine, ctx: BoardContext): string | null {
  const op = operatorLine(line);
  if (!op) return null;
  const scores = finalScores(op.text);
  if (scores) {
    if (scores.length === 0) return 'The game ended.';
    return `The game ended. ${scores.map((s) => `${seatName(s.seat, ctx)}: security ${signed(s.security)}, utility ${signed(s.utility)}`).join('; ')}.`;
  }
  const sent = /^Player (\S+) sent a guess$/.exec(op.text);
  if (sent) {
    const seat = seatOfInvite(sent[1] as string, ctx);
    return `${seat === undefined ? 'A player' : seatName(seat, ctx)} sent a guess.`;
  }
  return null;
}

/** The board's score table once the game has ended. */
export function scoresUpTo(lines: readonly BoardLine[], upto: number): FinalScore[] | null {
  for (let i = Math.min(upto, lines.length - 1); i >= 0; i--) {
    const op = operatorLine(lines[i] as BoardLine);
    const scores = op && op.to === null ? finalScores(op.text) : null;
    if (scores) return scores;
  }
  return null;
}
