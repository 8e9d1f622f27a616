// The match viewer's game facts, rendered server-side: the isolation each seat's process got is shown per seat, and
// an unsandboxed (trusted-folder) seat is marked; games stored before isolation was recorded show no such row.
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
    expect(html).toContain('spy: bubblewrap: files sandbox, pid namespace, network endpoints (127.0.0.1:4000)');
    expect(html).toContain(
      '<div class="small mv-unsandboxed">honest: unsandboxed (trusted folder): files host, pid host, network loopback</div>',
    );
  });

  it('has no isolation row for games stored before it was recorded', () => {
    expect(renderToStaticMarkup(createElement(GameFacts, { game: game({ isolation: null }) }))).not.toContain('Isolation');
  });
});
