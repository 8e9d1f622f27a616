// The audit warnings of a run (issue 15): harness faults above 1% of game attempts, and agents whose counted games
// mostly ended in their own faults. Rows are built as the executor stores them.
import { describe, expect, it } from 'vitest';
import type { StoredTournamentGame } from '../../../engine/db/store.js';
import { runWarnings } from '../../../engine/tournaments/results/stats.js';

let seq = 0;
function row(gameIndex: number, seats: number[], termination: string, fault: string, faultedSeats: number[] = [], attempt = 1) {
  seq++;
  return {
    seq,
    tournamentId: 't',
    gameKey: `k${gameIndex}`,
    gameIndex,
    attempt,
    round: 0,
    pairingIndex: 0,
    opening: gameIndex,
    challenge: 'psi',
    seats,
    seed: 's',
    swapOf: null,
    setSize: 1,
    sessionId: null,
    invites: [],
    termination,
    fault,
    faultedSeats,
    placements: termination === 'completed' ? [1, 2] : null,
    scores: null,
    detail: '',
    agentMs: 0,
    startedAt: 0,
    endedAt: 1,
  } as unknown as StoredTournamentGame;
}

describe('run warnings', () => {
  it('flags harness faults above 1% of attempts and not at 1%', () => {
    const clean = Array.from({ length: 99 }, (_, i) => row(i, [0, 1], 'completed', 'none'));
    // 1 of 100 attempts is exactly 1%: no warning. 2 of 101 is 1.98%: a warning.
    expect(runWarnings(['a', 'b'], [...clean, row(99, [0, 1], 'harness_error', 'harness')])).toEqual([]);
    const two = [...clean, row(99, [0, 1], 'harness_error', 'harness'), row(99, [0, 1], 'harness_stall', 'harness', [], 2)];
    expect(runWarnings(['a', 'b'], two)).toEqual([expect.stringMatching(/^2 of 101 game attempts \(2\.0%\) ended in a harness fault/)]);
  });

  it('flags an agent most of whose games are its own forfeits, naming the causes', () => {
    const rows = [
      row(0, [0, 1], 'agent_crash', 'agent', [0]),
      row(1, [1, 0], 'agent_timeout', 'agent', [0]),
      row(2, [0, 1], 'completed', 'none'),
      row(3, [1, 0], 'agent_crash', 'agent', [0]),
    ];
    // Agent 1 ("b"): faulted in games 1 and 3 (seat 0 in both) → 2 of 4, not most. Agent 0 ("a"): 1 of 4.
    expect(runWarnings(['a', 'b'], rows)).toEqual([]);
    rows.push(row(4, [0, 1], 'agent_illegal_action', 'agent', [1]));
    expect(runWarnings(['a', 'b'], rows)).toEqual([
      'b: 3 of its 5 games ended in its own fault (agent_timeout 1, agent_crash 1, agent_illegal_action 1); its results are forfeits, not play.',
    ]);
  });
});
