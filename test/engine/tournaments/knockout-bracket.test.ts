// GET /tournaments/:id carries a knockout run's bracket (issue 48): meetings by round with byes, points and winners by
// agent id, and the champion, from real Millionaire games.
import path from 'node:path';
import { expect, it } from 'vitest';
import { TournamentSummarySchema } from '../../../engine/contract/tournament.js';
import { engineForFile, MILLIONAIRE, play, spec } from './helpers.js';

const ctx = engineForFile();

it('a 3-entrant knockout: one bye to the top seed, a semi-final, a final, the champion the final winner', async () => {
  const run = await play(
    ctx.engine,
    spec({
      format: { kind: 'knockout' },
      agents: [
        { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'top' },
        { manifest: path.join(MILLIONAIRE, 'bluffer/agent.yaml'), id: 'second' },
        { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'third' },
      ],
    }),
  );
  expect(run.outcome.status).toBe('finished');
  const summary = TournamentSummarySchema.parse(ctx.engine.tournaments.summary(run.id));
  const bracket = summary.knockout;
  if (!bracket) throw new Error('no bracket in the summary');
  expect(bracket.rounds).toBe(2);
  expect(bracket.entrants).toBe(3);
  const first = bracket.meetings.filter((m) => m.round === 1);
  // Bracket order [1, 4, 2, 3]: the top seed meets the missing fourth (a bye), seeds 2 and 3 play.
  expect(first).toEqual([
    expect.objectContaining({ pairing_index: 0, high: 'top', low: null, winner: 'top', decided_by: 'bye' }),
    expect.objectContaining({ pairing_index: 1, high: 'second', low: 'third' }),
  ]);
  const semi = first[1];
  expect(['second', 'third']).toContain(semi?.winner);
  // The winner is the one with more points, unless still level after the tie-breaks (then the higher seed).
  if (semi?.decided_by === 'seed') expect(semi.winner).toBe('second');
  else expect(semi?.winner).toBe((semi?.points.high ?? 0) > (semi?.points.low ?? 0) ? 'second' : 'third');
  const final = bracket.meetings.find((m) => m.round === 2);
  expect(final?.high).toBe('top');
  expect(final?.low).toBe(semi?.winner);
  expect(final?.winner).not.toBeNull();
  expect(bracket.champion).toBe(final?.winner);
  // The games played are those of the two meetings that were not byes (the bye plays none).
  expect(new Set(run.games.map((g) => g.round))).toEqual(new Set([1, 2]));
  expect(run.games.filter((g) => g.round === 1).every((g) => !g.seats.includes(0))).toBe(true);
}, 120_000);

it('a run of another format has no bracket', async () => {
  const run = await play(ctx.engine, spec({ games_per_pairing: 2 }));
  expect(ctx.engine.tournaments.summary(run.id).knockout).toBeUndefined();
}, 60_000);
