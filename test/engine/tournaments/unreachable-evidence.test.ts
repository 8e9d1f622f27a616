// Blame by cause voids a game for an unreachable model server only on the engine's own evidence (its model-server
// forward could not connect), never on an agent's word: any agent can print ARENA_MODEL_STATUS, and a hostile one
// would print it in every game it is losing.
import { describe, expect, it } from 'vitest';
import type { ModelCallRecord } from '../../../engine/contract/model-call.js';
import { formatStatusLine } from '../../../engine/contract/usage-line.js';
import type { LaunchResult } from '../../../engine/runner/launch.js';
import { blameByCause } from '../../../engine/tournaments/launch/void-cause.js';
import { accountGame } from '../../../engine/tournaments/results/model-usage.js';

const claim = formatStatusLine({ kind: 'provider_unreachable', v: 1, endpoint: '127.0.0.1:11434', detail: 'ECONNREFUSED' });
const result = (stderr: string, modelCalls?: ModelCallRecord[]) =>
  ({ stderr, stderrTruncated: false, startedAt: 0, durationMs: 10, modelCalls }) as unknown as LaunchResult;
const call = (extra: Partial<ModelCallRecord>): ModelCallRecord => ({
  seq: 0,
  server: '127.0.0.1:11434',
  method: 'POST',
  path: '/v1/chat/completions',
  request: {},
  status: null,
  response: null,
  latency_ms: 1,
  queued_ms: 0,
  started_at: 0,
  ...extra,
});
const lost = { termination: 'agent_timeout' as const, faultedSeats: [0], placements: [2, 1], detail: 'seat 1 on the clock' };

describe('unreachable model servers: the engine is the witness', () => {
  it('an agent that only says its server is down is judged as it played', () => {
    const accounting = accountGame([result(`${claim}\n`), result('')]);
    expect(accounting.unreachable).toBeUndefined();
    expect(blameByCause(lost, accounting, ['liar', 'honest'])).toEqual(lost);
  });

  it('a claim the forward contradicts (its calls were answered) is ignored too', () => {
    const accounting = accountGame([result(`${claim}\n`, [call({ status: 200, response: {} })]), result('')]);
    expect(accounting.unreachable).toBeUndefined();
  });

  it('a call the forward could not connect voids the game, naming the server', () => {
    const accounting = accountGame([result(`${claim}\n`, [call({ unreachable: 'ECONNREFUSED' })]), result('')]);
    expect(accounting.unreachable).toEqual([{ seat: 0, endpoint: '127.0.0.1:11434', detail: 'ECONNREFUSED' }]);
    const judged = blameByCause(lost, accounting, ['model-a', 'honest']);
    expect(judged).toMatchObject({ termination: 'harness_error', faultedSeats: [], placements: null });
    expect(judged.detail).toContain('127.0.0.1:11434');
  });
});
