// The match viewer's game facts, rendered server-side: the outcome headline, the isolation each seat's process got
// (per seat, numbered as the seat table), an unsandboxed (trusted-folder) seat marked; games stored before isolation
// was recorded show no such row.
import { createElement, type FunctionComponent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TournamentGame } from '../../engine/contract/tournament.js';

// Loaded by path at run time: the engine-side type check (no JSX, no DOM types) must not follow it into the renderer.
const GAME_SUMMARY = '../../renderer/src/features/match-viewer/game-summary.js';
const { GameFacts } = (await import(GAME_SUMMARY)) as { GameFacts: FunctionComponent<{ game: TournamentGame }> };

const game = (over: Partial<TournamentGame> = {}): TournamentGame => ({
  seq: 1,
  tournamentId: 't-1',
  gameKey: 'k',
  gameIndex: 0,
  attempt: 1,
  round: 0,
  pairingIndex: 0,
  opening: 0,
  challenge: 'psi',
  seats: [0, 1],
  seat_agents: ['spy', 'honest'],
  seed: 's',
  swapOf: null,
  setSize: 2,
  sessionId: null,
  invites: [],
  termination: 'completed',
  fault: 'none',
  faultedSeats: [],
  placements: [1, 2],
  forfeit: false,
  reported_placements: [1, 2],
  scores: null,
  detail: '',
  agentMs: 10,
  startedAt: 0,
  endedAt: 20,
  ...over,
});

describe('GameFacts isolation', () => {
  it('shows each seat’s isolation and marks an unsandboxed seat', () => {
    const html = renderToStaticMarkup(
      createElement(GameFacts, {
        game: game({
          isolation: [
            {
              method: 'bubblewrap',
              filesystem: 'sandbox',
              pid: 'namespace',
              network: 'endpoints',
              endpoints: ['127.0.0.1:4000'],
              trusted: false,
            },
            { method: 'none', filesystem: 'host', pid: 'host', network: 'loopback', endpoints: [], trusted: true },
          ],
        }),
      }),
    );
    expect(html).toContain('spy (seat 1): bubblewrap: files sandbox, pid namespace, network endpoints (127.0.0.1:4000)');
    expect(html).toContain(
      '<div class="small mv-unsandboxed">honest (seat 2): unsandboxed (trusted folder): files host, pid host, network loopback</div>',
    );
  });

  it('states the winner with its seat, a draw, or why there is no result', () => {
    const outcome = (over: Partial<TournamentGame>) =>
      /data-testid="game-outcome">([^<]*)</.exec(renderToStaticMarkup(createElement(GameFacts, { game: game(over) })))?.[1];
    expect(outcome({ placements: [2, 1] })).toBe('Winner: honest (seat 2).');
    expect(outcome({ placements: [1, 1] })).toBe('Draw: every seat placed first.');
    expect(outcome({ placements: [1, 2], forfeit: true })).toBe('Winner by forfeit: spy (seat 1).');
    expect(outcome({ placements: null, termination: 'agent_crash' })).toBe('No winner: the game ended without a result (agent crash).');
  });

  it('has no isolation row for games stored before it was recorded', () => {
    expect(renderToStaticMarkup(createElement(GameFacts, { game: game({ isolation: null }) }))).not.toContain('Isolation');
  });
});
