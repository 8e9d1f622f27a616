// Request bodies: parsed leniently (any content type, like the reference), then validated with zod-3 wording (spec §2.2).
import type { z } from 'zod';
import { ArenaError } from '../protocols/specarena/arena-error.js';

/** Marker for a body that was sent but is not JSON (or was empty): routes that read a body answer 400. */
export const INVALID_JSON = Symbol('invalid-json');

export function parseJsonBody(text: string): unknown {
  if (text.length === 0) return INVALID_JSON;
  try {
    return JSON.parse(text);
  } catch {
    return INVALID_JSON;
  }
}

function typeName(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isNaN(value)) return 'nan';
  return typeof value;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The first issue in the words zod 3 used, which SpecArena clients and upstream tests compare against. */
export function zod3Message(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code === 'invalid_type') {
    const received = valueAt(input, issue.path);
    if (received === undefined) return 'Required';
    return `Expected ${issue.expected}, received ${typeName(received)}`;
  }
  return issue.message;
}

/** Validates a body read by a route: 400 for non-JSON, a non-object, or a schema failure. */
export function readBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === INVALID_JSON || body === undefined) throw new ArenaError(400, 'Invalid JSON in request body');
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ArenaError(400, issue ? zod3Message(issue, body) : 'Invalid request body');
  }
  return parsed.data;
}

/** Like readBody, but the message names the field ("agents.0: ..."), for admin routes the UI shows verbatim. */
export function readFieldBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === INVALID_JSON || body === undefined) throw new ArenaError(400, 'Invalid JSON in request body');
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new ArenaError(400, issue ? `${where}${zod3Message(issue, body)}` : 'Invalid request body', 'VALIDATION_FAILED');
  }
  return parsed.data;
}

/** A body that may be absent (create ignores its body): never throws. */
export function optionalObject(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
