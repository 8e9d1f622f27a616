import { describe, expect, it } from 'vitest';
import type { AdminSessionDetail } from '../../engine/contract/admin.js';
import type { Challenge, ChatMessage } from '../../engine/contract/specarena.js';
import {
  mergeMessages,
  participantLabel,
  seatRows,
  withFreshDetail,
  withLiveMessages,
} from '../../renderer/src/features/session-detail/session-view.js';

const m = (index: number, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  channel: 'c',
  from: 'operator',
  content: `m${index}`,
  index,
  timestamp: index,
  ...extra,
});

const session: Challenge = {
  id: 's1',
  name: 'psi-1',
  createdAt: 1,
  challengeType: 'psi',
  invites: ['inv_a', 'inv_b'],
  // inv_b joined first, so scores[0] belongs to inv_b.
  state: {
    status: 'ended',
    players: ['inv_b', 'inv_a'],
    scores: [
      { security: 1, utility: 0 },
      { security: -1, utility: 1 },
    ],
    playerIdentities: { inv_a: 'alice', inv_b: 'bob' },
  },
  gameCategory: 'train',
};

describe('seatRows', () => {
  it('pairs each invite with its identity and its score by join order', () => {
    expect(seatRows(session)).toEqual([
      { seat: 1, invite: 'inv_a', joined: true, identity: 'alice', score: { security: -1, utility: 1 } },
      { seat: 2, invite: 'inv_b', joined: true, identity: 'bob', score: { security: 1, utility: 0 } },
    ]);
  });

  it('marks seats nobody has taken yet', () => {
    const open: Challenge = { ...session, state: { status: 'open', players: [], scores: [], playerIdentities: {} } };
    expect(seatRows(open).map((r) => [r.joined, r.identity, r.score])).toEqual([
      [false, undefined, undefined],
      [false, undefined, undefined],
    ]);
  });
});

describe('participantLabel', () => {
  it('names seats, the operator and broadcast', () => {
    expect(participantLabel('inv_b', session.invites)).toBe('Player 2');
    expect(participantLabel('operator', session.invites)).toBe('Operator');
    expect(participantLabel(null, session.invites)).toBe('everyone');
    expect(participantLabel('someone', session.invites)).toBe('someone');
  });
});

describe('mergeMessages', () => {
  it('unions by index in order without duplicates', () => {
    expect(mergeMessages([m(1), m(3)], [m(2), m(3), m(4)]).map((x) => x.index)).toEqual([1, 2, 3, 4]);
  });

  it('prefers the full copy over the redacted live copy, whichever arrives first', () => {
    const full = m(2, { to: 'inv_a', content: 'Your private set is: 1, 2' });
    const redacted = m(2, { to: 'inv_a', content: '', redacted: true });
    expect(mergeMessages([full], [redacted])).toEqual([full]);
    expect(mergeMessages([redacted], [full])).toEqual([full]);
  });
});

describe('detail updates', () => {
  const detail: AdminSessionDetail = { session, options: {}, lastActivityAt: 5, operatorLog: [m(1)], chat: [] };

  it('adds live messages to the right transcript', () => {
    const next = withLiveMessages(detail, 'chat', [m(1, { channel: 's1', from: 'inv_a', content: 'hi' })]);
    expect(next.chat).toHaveLength(1);
    expect(next.operatorLog).toEqual(detail.operatorLog);
  });

  it('keeps live messages a fresh read does not contain yet', () => {
    const withLive = withLiveMessages(detail, 'operatorLog', [m(2)]);
    const fresh: AdminSessionDetail = { ...detail, lastActivityAt: 9, operatorLog: [m(1)] };
    expect(withFreshDetail(withLive, fresh).operatorLog.map((x) => x.index)).toEqual([1, 2]);
    expect(withFreshDetail(withLive, fresh).lastActivityAt).toBe(9);
    expect(withFreshDetail(undefined, fresh)).toBe(fresh);
  });
});
