// PSI game helpers over HTTP: players learn their sets only from operator DMs, as real agents do (decision 11(a)).
import type { ChatMessage } from '../../engine/contract/specarena.js';
import type { Client } from './http.js';

export interface CreatedSession {
  id: string;
  invites: string[];
}

const SET_DM = /^Your private set is: \{([^}]*)\}\.$/;

/** The numbers of a "Your private set is: {…}." DM, or undefined for any other message. */
export function parsePrivateSet(content: string): number[] | undefined {
  const match = SET_DM.exec(content);
  if (!match) return undefined;
  const inner = match[1] ?? '';
  return inner.length === 0 ? [] : inner.split(', ').map((v) => Number(v));
}

export function intersect(a: readonly number[], b: readonly number[]): number[] {
  const other = new Set(b);
  return a.filter((v) => other.has(v)).sort((x, y) => x - y);
}

export async function createSession(c: Client, type = 'psi'): Promise<CreatedSession> {
  const res = await c.post<CreatedSession>(`/api/challenges/${type}`);
  if (res.status !== 200) throw new Error(`create ${type}: ${res.status} ${res.text}`);
  return res.body;
}

export async function join(c: Client, invite: string, userId?: string): Promise<string> {
  const res = await c.post<{ ChallengeID: string }>('/api/arena/join', userId === undefined ? { invite } : { invite, userId });
  if (res.status !== 200) throw new Error(`join ${invite}: ${res.status} ${res.text}`);
  return res.body.ChallengeID;
}

export async function operatorMessages(c: Client, sessionId: string, from?: string, index = 0): Promise<ChatMessage[]> {
  const res = await c.get<{ messages: ChatMessage[] }>('/api/arena/sync', { query: { channel: sessionId, index, from } });
  if (res.status !== 200) throw new Error(`sync: ${res.status} ${res.text}`);
  return res.body.messages;
}

/** A player's private set, read from its operator DM. */
export async function privateSet(c: Client, sessionId: string, invite: string): Promise<number[]> {
  for (const m of await operatorMessages(c, sessionId, invite)) {
    const set = m.to === invite ? parsePrivateSet(m.content) : undefined;
    if (set) return set;
  }
  throw new Error(`no private-set DM for ${invite}`);
}

export async function guess(c: Client, sessionId: string, from: string, numbers: readonly number[]) {
  return c.post<{ ok?: string; error?: string; code?: string }>('/api/arena/message', {
    challengeId: sessionId,
    from,
    messageType: 'guess',
    content: numbers.join(', '),
  });
}
