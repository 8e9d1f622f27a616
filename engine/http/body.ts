// Request bodies: parsed leniently (any content type, like the reference), then validated with zod-3 wording (spec §2.2).
import type { z } from 'zod';
import { DomainError, EngineErrorCode } from '../contract/errors.js';
import { zodIssues } from '../contract/schema-issues.js';
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

/** The body's problems for the admin API: every issue by path, so the UI can show each next to its field. */
function adminBodyError(parsedError: z.ZodError, body: unknown, named: boolean): DomainError {
  const issue = parsedError.issues[0];
  const where = named && issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  const message = issue ? `${where}${zod3Message(issue, body)}` : 'Invalid request body';
  return new DomainError('invalid', message, {
    code: EngineErrorCode.ValidationFailed,
    issues: zodIssues(parsedError, (i) => zod3Message(i, body)),
  });
}

function readAdmin<S extends z.ZodType>(schema: S, body: unknown, named: boolean): z.infer<S> {
  if (body === INVALID_JSON || body === undefined)
    throw new DomainError('invalid', 'Invalid JSON in request body', { code: EngineErrorCode.InvalidJson });
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw adminBodyError(parsed.error, body, named);
  return parsed.data;
}

/** readBody for the admin API: the same message, thrown as a domain error with every issue. */
export function readAdminBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  return readAdmin(schema, body, false);
}

/** Like readAdminBody, but the message names the field ("agents.0: ..."), for routes whose message the UI shows verbatim. */
export function readFieldBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  return readAdmin(schema, body, true);
}

/** An admin query string that fails its schema: `Invalid query: <first problem>`, every issue by path. */
export function readAdminQuery<S extends z.ZodType>(schema: S, query: unknown, options: { named?: boolean } = {}): z.infer<S> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = options.named && issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw new DomainError('invalid', `Invalid query: ${where}${issue?.message}`, {
    code: EngineErrorCode.ValidationFailed,
    issues: zodIssues(parsed.error),
  });
}

/** A body that may be absent (create ignores its body): never throws. */
export function optionalObject(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
