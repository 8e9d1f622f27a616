// A knockout bracket laid out as columns, one per round, every slot of the bracket present: the meetings played or
// being played, and the ones not yet opened (their entrants still to be decided). Pure, so the layout is unit-tested.
import type { KnockoutBracket, KnockoutMeeting } from '../../../../engine/contract/knockout-bracket.js';

export type BracketSlot = { kind: 'meeting'; meeting: KnockoutMeeting } | { kind: 'pending'; pairingIndex: number };

export interface BracketColumn {
  round: number;
  title: string;
  slots: BracketSlot[];
}

/** "Final", "Semi-finals", "Quarter-finals", else "Round N". */
export function roundTitle(round: number, rounds: number): string {
  const fromEnd = rounds - round;
  if (fromEnd === 0) return 'Final';
  if (fromEnd === 1) return 'Semi-finals';
  if (fromEnd === 2) return 'Quarter-finals';
  return `Round ${round}`;
}

export function bracketColumns(bracket: KnockoutBracket): { columns: BracketColumn[]; thirdPlace: KnockoutMeeting | null } {
  const columns: BracketColumn[] = [];
  for (let round = 1; round <= bracket.rounds; round++) {
    const size = 2 ** (bracket.rounds - round);
    const slots: BracketSlot[] = [];
    for (let i = 0; i < size; i++) {
      const meeting = bracket.meetings.find((m) => m.round === round && !m.third_place && m.pairing_index === i);
      slots.push(meeting ? { kind: 'meeting', meeting } : { kind: 'pending', pairingIndex: i });
    }
    columns.push({ round, title: roundTitle(round, bracket.rounds), slots });
  }
  return { columns, thirdPlace: bracket.meetings.find((m) => m.third_place) ?? null };
}

/** How a decided meeting was decided, in words; null while it is played or when plain games decided it. */
export function decidedNote(meeting: KnockoutMeeting): string | null {
  if (meeting.winner === null) return meeting.low === null ? null : 'in play';
  if (meeting.decided_by === 'bye') return 'advances without games';
  if (meeting.decided_by === 'tie_break')
    return `after ${meeting.tie_break_pairs} tie-break pair${meeting.tie_break_pairs === 1 ? '' : 's'}`;
  if (meeting.decided_by === 'seed') return 'level after the tie-breaks: the higher seed advances';
  return null;
}
