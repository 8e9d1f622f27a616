// The knockout bracket's layout (issue 48): a column per round with every slot of the bracket, meetings not yet opened
// shown as pending, the third-place meeting apart, and how each meeting was decided in words.
import { expect, it } from 'vitest';
import type { KnockoutMeeting } from '../../engine/contract/knockout-bracket.js';
import { knockoutBracket } from '../../engine/contract/knockout-bracket.js';
import { bracketColumns, decidedNote, roundTitle } from '../../renderer/src/features/reports/bracket-columns.js';

const meeting = (m: Partial<KnockoutMeeting> & Pick<KnockoutMeeting, 'round' | 'pairing_index' | 'high'>): Record<string, unknown> => ({
  low: null,
  third_place: false,
  points: { high: 0, low: 0 },
  tie_break_pairs: 0,
  winner: null,
  decided_by: null,
  ...m,
});

it('5 entrants: 3 rounds of 4, 2 and 1 slots; round 2 open, the final pending; ids from indices', () => {
  const ids = ['a', 'b', 'c', 'd', 'e'];
  const bracket = knockoutBracket(
    {
      format: 'knockout',
      meetings: [
        meeting({ round: 1, pairing_index: 0, high: 0 as never, winner: 0 as never, decided_by: 'bye' }),
        meeting({
          round: 1,
          pairing_index: 1,
          high: 3 as never,
          low: 4 as never,
          points: { high: 0.5, low: 1.5 },
          winner: 4 as never,
          decided_by: 'games',
        }),
        meeting({ round: 1, pairing_index: 2, high: 1 as never, winner: 1 as never, decided_by: 'bye' }),
        meeting({ round: 1, pairing_index: 3, high: 2 as never, winner: 2 as never, decided_by: 'bye' }),
        meeting({ round: 2, pairing_index: 0, high: 0 as never, low: 4 as never }),
      ],
    },
    ids,
  );
  if (!bracket) throw new Error('no bracket');
  expect(bracket.rounds).toBe(3);
  expect(bracket.champion).toBeNull();
  const { columns, thirdPlace } = bracketColumns(bracket);
  expect(columns.map((c) => [c.title, c.slots.map((s) => s.kind)])).toEqual([
    ['Quarter-finals', ['meeting', 'meeting', 'meeting', 'meeting']],
    ['Semi-finals', ['meeting', 'pending']],
    ['Final', ['pending']],
  ]);
  expect(thirdPlace).toBeNull();
  const second = columns[0]?.slots[1];
  expect(second?.kind === 'meeting' && [second.meeting.high, second.meeting.low, second.meeting.winner]).toEqual(['d', 'e', 'e']);
  const open = columns[1]?.slots[0];
  expect(open?.kind === 'meeting' && decidedNote(open.meeting)).toBe('in play');
});

it('the champion is the final winner, not the third-place winner; decisions in words', () => {
  const bracket = knockoutBracket(
    {
      format: 'knockout',
      meetings: [
        meeting({ round: 2, pairing_index: 0, high: 0 as never, low: 1 as never, winner: 1 as never, decided_by: 'seed' }),
        meeting({
          round: 2,
          pairing_index: 1,
          high: 2 as never,
          low: 3 as never,
          third_place: true,
          winner: 2 as never,
          decided_by: 'tie_break',
          tie_break_pairs: 2,
        }),
      ],
    },
    ['a', 'b', 'c', 'd'],
  );
  expect(bracket?.champion).toBe('b');
  const { thirdPlace } = bracketColumns(bracket as NonNullable<typeof bracket>);
  expect(thirdPlace?.winner).toBe('c');
  expect(decidedNote(thirdPlace as KnockoutMeeting)).toBe('after 2 tie-break pairs');
  expect(decidedNote(bracket?.meetings[0] as KnockoutMeeting)).toBe('level after the tie-breaks: the higher seed advances');
  expect(roundTitle(1, 5)).toBe('Round 1');
  expect(knockoutBracket({ format: 'swiss', table: [] }, ['a', 'b'])).toBeNull();
});
