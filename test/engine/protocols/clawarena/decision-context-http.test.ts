// decision_context v2 over HTTP: v1 by default, the three profiles, session deltas with state_ack, resync with
// context_id (a repeated id replays instead of resetting), and ids/checksums recomputed from what was sent.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DecisionContextSchema } from '../../../../engine/contract/clawarena.js';
import { applyDelta } from '../../../../engine/protocols/clawarena/decision-context.js';
import { canonicalJson } from '../../../../engine/runtime/canonical-json.js';
import { fallbackMove, type Poll, scheduledMatch, turnHolder } from './helpers.js';
import { setUpClawHttp } from './http-setup.js';

const http = setUpClawHttp({ expectValid: true });
let n = 0;

async function match() {
  n++;
  return scheduledMatch(http.server.engine.clawarena, `dc-${n}`) as [string, string];
}

/** Lets whichever seat is due make its server-fallback move. */
async function advance(tokens: string[]) {
  const holder = await turnHolder(http.client, tokens);
  if (!holder) throw new Error('nobody can move');
  expect((await http.client.act(fallbackMove(holder.poll), holder.token)).status).toBe(200);
}

const v2 = (profile: string, extra: Record<string, string | number> = {}) => ({
  decision_context_version: 2,
  decision_context_profile: profile,
  ...extra,
});
type Dc = NonNullable<Poll['decision_context']>;
const dcOf = (p: Poll): Dc => DecisionContextSchema.parse(p.decision_context) as unknown as Dc;
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('decision_context v2', () => {
  it('is absent in v1 (the default)', async () => {
    const [a] = await match();
    expect((await http.client.poll({}, a)).body).not.toHaveProperty('decision_context');
    expect((await http.client.poll({ decision_context_version: 1 }, a)).body).not.toHaveProperty('decision_context');
  });

  it('stateless: full stable part and full state every time; id and checksum recompute from the wire', async () => {
    const [a] = await match();
    for (let i = 0; i < 2; i++) {
      const poll = (await http.client.poll(v2('stateless'), a)).body;
      const dc = dcOf(poll);
      const stable = dc.stable as Record<string, unknown>;
      expect(Object.keys(stable).sort()).toEqual(['game_type', 'id', 'message_language', 'rules', 'strategy', 'user_preferences']);
      const { id, ...content } = stable;
      expect(id).toBe(`dc2-${sha(canonicalJson(content)).slice(0, 24)}`);
      expect(stable.rules).toEqual((poll as unknown as { game_rules_brief: unknown }).game_rules_brief);
      expect(dc.turn).toMatchObject({ mode: 'full', base_seq: null, state_seq: 1 });
      expect(dc.turn.state).toEqual(poll.state);
      expect(dc.turn.state_checksum).toBe(`sha256:${sha(canonicalJson(poll.state))}`);
    }
  });

  it('bootstrap: the stable part once per context, again on resync and when it changes', async () => {
    const [a] = await match();
    const first = dcOf((await http.client.poll(v2('bootstrap', { context_id: 'boot' }), a)).body);
    expect(first.stable).toHaveProperty('rules');
    const second = dcOf((await http.client.poll(v2('bootstrap', { context_id: 'boot' }), a)).body);
    expect(second.stable).toEqual({ id: first.stable.id, unchanged: true });
    expect(second.turn.mode).toBe('full');
    const other = dcOf((await http.client.poll(v2('bootstrap', { context_id: 'another' }), a)).body);
    expect(other.stable).toHaveProperty('rules');
    const resync = (await http.client.poll(v2('bootstrap', { context_id: 'boot', resync: 1 }), a)).body;
    expect(resync.resynced).toBe(true);
    expect(dcOf(resync).stable).toHaveProperty('rules');
    const agent = http.server.engine.clawarena.agentByName(`dc-${n}-0`);
    http.server.engine.clawarena.updateAgent(agent?.agentId as number, { preferences: { message_language: 'German' } });
    const changed = dcOf((await http.client.poll(v2('bootstrap', { context_id: 'boot' }), a)).body);
    expect(changed.stable.id).not.toBe(first.stable.id);
    expect(changed.stable).toMatchObject({ message_language: 'German' });
  });

  it('session: deltas against the acknowledged state that reproduce the checksum; full when the ack is unusable', async () => {
    const tokens = await match();
    const [a] = tokens;
    const base = (await http.client.poll(v2('session', { context_id: 's' }), a)).body;
    const baseDc = dcOf(base);
    expect(baseDc.turn.mode).toBe('full');
    const baseState = baseDc.turn.state as Record<string, unknown>;
    const baseSeq = baseDc.turn.state_seq as number;
    await advance(tokens);
    await advance(tokens);
    const next = dcOf((await http.client.poll(v2('session', { context_id: 's', state_ack: baseSeq }), a)).body);
    expect(next.turn).toMatchObject({ mode: 'delta', base_seq: baseSeq });
    expect(next.turn.state_seq).toBeGreaterThan(baseSeq);
    expect(next.stable).toEqual({ id: baseDc.stable.id, unchanged: true });
    const delta = next.turn.state_delta as Record<string, unknown>;
    expect(delta.bid_history).toHaveProperty('_appended');
    const rebuilt = applyDelta(baseState, delta, next.turn.state_removed as string[]);
    expect(`sha256:${sha(canonicalJson(rebuilt))}`).toBe(next.turn.state_checksum);
    const same = dcOf((await http.client.poll(v2('session', { context_id: 's', state_ack: next.turn.state_seq as number }), a)).body);
    expect(same.turn).toMatchObject({ mode: 'delta', state_delta: {}, state_removed: [], state_seq: next.turn.state_seq });
    for (const ack of [999, undefined]) {
      const query = ack === undefined ? v2('session', { context_id: 's' }) : v2('session', { context_id: 's', state_ack: ack });
      expect(dcOf((await http.client.poll(query, a)).body).turn).toMatchObject({ mode: 'full', base_seq: null });
    }
    const resync = dcOf((await http.client.poll(v2('session', { context_id: 's', state_ack: baseSeq, resync: 1 }), a)).body);
    expect(resync.turn.mode).toBe('full');
    expect(resync.stable).toHaveProperty('rules');
  });

  it('keeps state_seq per (agent, match): unchanged state keeps it, a change bumps it by one', async () => {
    const tokens = await match();
    const [a] = tokens;
    const s1 = dcOf((await http.client.poll(v2('stateless'), a)).body).turn.state_seq as number;
    const s2 = dcOf((await http.client.poll(v2('stateless'), a)).body).turn.state_seq as number;
    expect(s2).toBe(s1);
    await advance(tokens);
    const s3 = dcOf((await http.client.poll(v2('stateless'), a)).body).turn.state_seq as number;
    expect(s3).toBe(s1 + 1);
  });

  it('treats a repeated resync with the same context_id as a replay, not a new reset', async () => {
    const tokens = await match();
    const [a] = tokens;
    const first = (await http.client.poll({ resync: 1, context_id: 'ctx-r', consume_history: 1 }, a)).body;
    expect(first.resynced).toBe(true);
    expect(first.events.length).toBeGreaterThan(0);
    await advance(tokens);
    // The cursor advanced; a retry of the same resync must not reset it.
    const retry = (await http.client.poll({ resync: 1, context_id: 'ctx-r', consume_history: 1 }, a)).body;
    expect(retry.resynced).toBe(true);
    expect(retry.events.every((e) => (e.event_seq as number) > (first.events.at(-1)?.event_seq as number))).toBe(true);
    const fresh = (await http.client.poll({ resync: 1, context_id: 'ctx-new', consume_history: 1 }, a)).body;
    expect(fresh.events[0]?.event_seq).toBe(1);
  });
});
