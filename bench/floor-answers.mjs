// The canned answers both bench:api floors give to the PSI request sequence (no storage, validation or game logic).
const SESSION = '00000000-0000-4000-8000-000000000000';

export const created = {
  id: SESSION,
  name: 'psi',
  createdAt: 0,
  challengeType: 'psi',
  invites: ['inv_a', 'inv_b'],
  state: { status: 'open', scores: [], players: [], playerIdentities: {} },
  gameCategory: 'train',
};
export const joined = { ChallengeID: SESSION, ChallengeInfo: { name: 'Private Set Intersection', players: 2 } };
const dm = (to) => ({
  channel: `challenge_${SESSION}`,
  from: 'operator',
  to,
  content: 'Your private set is: {101, 202, 303, 404}.',
  index: 1,
  timestamp: 0,
});
const ended = { channel: `challenge_${SESSION}`, from: 'operator', content: 'Game ended.\n\nScores are:', index: 9, timestamp: 0 };
/** The operator-channel sync: the seat's set DM at first, the end of the game past index 1. */
export const arenaSync = (from, index) => (index > 1 ? { messages: [ended], count: 1 } : { messages: [dm(from)], count: 1 });
export const chatSent = { index: 1, channel: SESSION, from: 'inv_a', to: null };
export const chatSync = {
  messages: [{ channel: SESSION, from: 'inv_b', content: 'my set: {101, 202, 303}', index: 1, timestamp: 0 }],
  count: 1,
};
export const messageSent = { ok: 'Message sent' };
