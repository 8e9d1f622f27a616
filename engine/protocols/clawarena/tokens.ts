// Connection tokens in the format the public clients decode: base64url(JSON {"a": agent_id, "t": secret}).
// Only SHA-256(secret) is stored; the token itself is shown once and never logged.
import { createHash, randomBytes } from 'node:crypto';

export interface ParsedToken {
  agentId: number;
  secret: string;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A fresh token for an agent: a 256-bit secret. */
export function mintToken(agentId: number): { token: string; secretHash: string } {
  const secret = randomBytes(32).toString('base64url');
  const token = Buffer.from(JSON.stringify({ a: agentId, t: secret }), 'utf8').toString('base64url');
  return { token, secretHash: hashSecret(secret) };
}

/** Decodes a presented token (padding optional); null for anything that is not a well-formed token. */
export function parseToken(token: string | undefined): ParsedToken | null {
  if (!token || token.length > 1024 || !/^[A-Za-z0-9_-]+={0,2}$/.test(token)) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token.replace(/=+$/, ''), 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) return null;
  const { a, t } = decoded as { a?: unknown; t?: unknown };
  if (typeof a !== 'number' || !Number.isSafeInteger(a) || a < 1) return null;
  if (typeof t !== 'string' || t.length < 16 || t.length > 256) return null;
  return { agentId: a, secret: t };
}
