// Every agent-fault termination with real agent processes (tiny fixtures in test/fixtures/agents/tournament/): the
// faulty seat forfeits, the opponent is credited with the win, and the reason lands on the game record.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gameView } from '../../../engine/tournaments/results/stats.js';
import { engineForFile, FIXTURES, MILLIONAIRE, play, ROOT, spec } from './helpers.js';

const ctx = engineForFile();

const against = (fixture: string, limits: { move_seconds: number; game_seconds: number }) =>
  spec({
    agents: [
      { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'truthful' },
      { manifest: path.join(FIXTURES, fixture, 'agent.yaml'), id: fixture },
    ],
    limits,
    max_illegal_actions: 2,
  });

describe.concurrent('terminations', () => {
  // Only the hang test needs a short move clock, yet longer than the opponent's 5 s wait for a silent partner's chat,
  // so on a loaded machine it is still the hanging seat alone that runs out of time; the others get more room.
  it.each([
    ['crash-bot', 'agent_crash', /exited with code 3/, 20],
    ['hang-bot', 'agent_timeout', /no move within 8 s/, 8],
    ['illegal-bot', 'agent_illegal_action', /INVALID_GUESS/, 20],
    ['protocol-bot', 'agent_protocol_violation', /UNKNOWN_METHOD/, 20],
  ])(
    '%s → %s, a forfeit of its seat only',
    async (fixture, termination, detail, move) => {
      const r = await play(ctx.engine, against(fixture, { move_seconds: move, game_seconds: 40 }));
      expect(r.outcome.status).toBe('finished');
      expect(r.games).toHaveLength(2);
      for (const g of r.games) {
        expect(g.termination).toBe(termination);
        expect(g.fault).toBe('agent');
        expect(g.detail).toMatch(detail);
        // The fixture is agent 1; its seat is the one at fault.
        expect(g.faultedSeats).toEqual([g.seats.indexOf(1)]);
        // Refusals reach the game's record with their reason, each right after the refused action of that seat.
        const transcript = ctx.engine.tournaments.store.tournaments.transcript(r.id, g.seq) as Array<{
          channel: string;
          from: unknown;
          to: unknown;
          content: string;
          data?: { kind?: string; code?: string | null };
        }>;
        const refusals = transcript.filter((e) => e.data?.kind === 'refusal');
        if (termination === 'agent_illegal_action' || termination === 'agent_protocol_violation') {
          // Budget 2: the third refusal forfeits (later ones may race the forfeit).
          expect(refusals.length).toBeGreaterThanOrEqual(3);
          const code = termination === 'agent_illegal_action' ? 'INVALID_GUESS' : 'UNKNOWN_METHOD';
          for (const refusal of refusals) {
            expect(refusal).toMatchObject({ channel: 'operator', from: 'operator', to: g.faultedSeats[0], data: { code } });
            expect(refusal.content).toMatch(new RegExp(`^Refused \\(${code}\\): .+`));
            const action = transcript[transcript.indexOf(refusal) - 1];
            expect(action).toMatchObject({ channel: 'operator', from: g.faultedSeats[0], to: 'operator' });
          }
        } else expect(refusals).toEqual([]);
      }
      const { stats } = ctx.engine.tournaments.statistics(r.id);
      const good = stats.standings.combined.find((s) => s.agent === 'truthful');
      expect(good).toMatchObject({ wins: 2, losses: 0 });
    },
    90_000,
  );

  it('a seat that never joins forfeits alone, in both seat orders; the seat waiting behind it is not faulted', async () => {
    const r = await play(ctx.engine, against('sleeper-bot', { move_seconds: 5, game_seconds: 40 }));
    expect(r.outcome.status).toBe('finished');
    expect(r.games).toHaveLength(2);
    // Both seat orders: the sleeper first (the honest agent never gets started) and second.
    expect(r.games.map((g) => g.seats.indexOf(1)).sort()).toEqual([0, 1]);
    for (const g of r.games) {
      expect(g.termination).toBe('agent_timeout');
      expect(g.faultedSeats).toEqual([g.seats.indexOf(1)]);
      // Seats in details count from 1, as in the seat table.
      expect(g.detail).toMatch(new RegExp(`^seat ${g.seats.indexOf(1) + 1} did not join within 10 s`));
      if (g.seats.indexOf(1) === 0) expect(g.detail).toMatch(/seat 2 not started \(waits for seat 1\)/);
    }
    const { stats } = ctx.engine.tournaments.statistics(r.id);
    expect(stats.standings.combined.find((s) => s.agent === 'truthful')).toMatchObject({ wins: 2, losses: 0, draws: 0 });
    expect(stats.standings.combined.find((s) => s.agent === 'sleeper-bot')).toMatchObject({ wins: 0, losses: 2 });
    // The games list, the match viewer and the exports read the same result: the honest agent wins by forfeit.
    for (const g of r.games) {
      const view = gameView(g, ['truthful', 'sleeper-bot']);
      expect(view.forfeit).toBe(true);
      expect(view.placements?.[g.seats.indexOf(0)]).toBe(1);
      expect(view.placements?.[g.seats.indexOf(1)]).toBe(2);
    }
    // Every game of the sleeper ended in its own fault: the run says so.
    expect(stats.warnings).toEqual([expect.stringMatching(/^sleeper-bot: 2 of its 2 games ended in its own fault \(agent_timeout 2\)/)]);
  }, 90_000);

  it('a stall is blamed on the seat that still owes its move, not on the one that has made its only guess', async () => {
    // The fixture acts last (a refused guess, after the opponent's accepted one), then falls silent: "acted least
    // recently" alone would blame the opponent, which has nothing left to do.
    const r = await play(ctx.engine, against('refused-then-silent-bot', { move_seconds: 8, game_seconds: 60 }));
    expect(r.outcome.status).toBe('finished');
    expect(r.games).toHaveLength(2);
    for (const g of r.games) {
      const transcript = ctx.engine.tournaments.store.tournaments.transcript(r.id, g.seq) as Array<{
        from: unknown;
        data?: { kind?: string };
      }>;
      // The opponent's guess came first and was accepted; the fixture's refused one is its seat's last act.
      const refusal = transcript.findIndex((e) => e.data?.kind === 'refusal');
      expect(refusal).toBeGreaterThan(0);
      expect(g).toMatchObject({ termination: 'agent_timeout', fault: 'agent', faultedSeats: [g.seats.indexOf(1)] });
      expect(g.detail).toBe(`no move within 8 s: seat ${g.seats.indexOf(1) + 1} on the clock`);
    }
    const { stats } = ctx.engine.tournaments.statistics(r.id);
    expect(stats.standings.combined.find((s) => s.agent === 'truthful')).toMatchObject({ wins: 2, losses: 0 });
  }, 90_000);

  it('a program this machine lacks is refused by preflight, and a launch that still fails for it is void, never agent_crash', async () => {
    const bad = path.join(ctx.dir, 'missing-bot');
    fs.mkdirSync(bad, { recursive: true });
    fs.writeFileSync(
      path.join(bad, 'agent.yaml'),
      'id: missing-bot\nname: Missing\nframework: node\nentrypoint:\n  command: ["definitely-not-a-program-xyz"]\nprotocol: specarena\n',
    );
    const raw = spec({
      agents: [
        { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'truthful' },
        { manifest: path.join(bad, 'agent.yaml'), id: 'missing' },
      ],
    });
    const loaded = ctx.engine.tournaments.validate(raw, ROOT);
    expect(await ctx.engine.tournaments.preflight(loaded.agents)).toEqual([
      expect.objectContaining({ agent: 'missing', check: 'program', program: 'definitely-not-a-program-xyz' }),
    ]);
    // Started past preflight (the program went away after it): each game is void, the repeat pauses the run.
    const r = await play(ctx.engine, raw);
    expect(r.games.length).toBeGreaterThanOrEqual(2);
    expect(new Set(r.games.map((g) => g.termination))).toEqual(new Set(['harness_error']));
    expect(r.games.every((g) => g.fault === 'harness' && g.faultedSeats.length === 0)).toBe(true);
    expect(r.games[0]?.detail).toContain('agent missing cannot start here: `definitely-not-a-program-xyz` not found');
    expect(r.outcome).toMatchObject({ status: 'paused', reason: expect.stringContaining('paused after 2 void games in a row') });
  }, 60_000);
});
