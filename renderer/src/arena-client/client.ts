// The one HTTP client of the renderer: typed calls to the engine, every response parsed with the contract's schemas.
import type { z } from 'zod';
import {
  ADMIN_PREFIX,
  type AdminCreateSessionRequestSchema,
  type AdminCreateSessionResponse,
  AdminCreateSessionResponseSchema,
  AdminKeptSessionResponseSchema,
  type AdminSessionDetail,
  AdminSessionDetailSchema,
  type AdminSessionListResponse,
  AdminSessionListResponseSchema,
  type OverviewResponse,
  OverviewResponseSchema,
  RecomputeResponseSchema,
} from '../../../engine/contract/admin.js';
import { AdminErrorBodySchema } from '../../../engine/contract/errors.js';
import {
  ErrorBodySchema,
  ScoringByTypeResponseSchema,
  type ScoringEntry,
  ScoringResponseSchema,
  type SessionStatus,
} from '../../../engine/contract/specarena.js';
import type { ReachabilityHooks } from './engine-monitor.js';
import { ApiError, ContractError, EngineUnreachableError, UnauthorizedError } from './errors.js';

export type FetchFn = (input: string, init?: RequestInit) => Promise<Response>;

export interface SessionListQuery {
  type?: string | undefined;
  status?: SessionStatus | undefined;
  /** False: leave out sessions tournaments created for their games. */
  tournamentSessions?: boolean | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

export type CreateSessionInput = z.input<typeof AdminCreateSessionRequestSchema>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Raw bytes sent as the body instead of JSON (a file upload), with their content type. */
  raw?: { data: Blob; type: string };
  /** Admin routes get the admin token; agent-facing routes never do. */
  admin: boolean;
  signal?: AbortSignal | undefined;
  /** Longer than REQUEST_TIMEOUT_MS for work that grows with a file (verifying an uploaded bundle). */
  timeoutMs?: number;
}

export interface ArenaClient {
  readonly baseUrl: string;
  /** Any JSON route, its response parsed with `schema`; feature modules build their typed calls on it. */
  call<S extends z.ZodType>(schema: S, path: string, options: RequestOptions): Promise<z.infer<S>>;
  /** A non-JSON admin resource (exports, raw reports) as text. */
  text(path: string, signal?: AbortSignal): Promise<string>;
  /** A binary admin resource (an audit bundle) as bytes. */
  bytes(path: string, signal?: AbortSignal): Promise<Uint8Array>;
  /** POSTs a file's bytes as the raw body of an admin route; the JSON answer is parsed with `schema`. */
  upload<S extends z.ZodType>(schema: S, path: string, file: Blob, signal?: AbortSignal): Promise<z.infer<S>>;
  overview(signal?: AbortSignal): Promise<OverviewResponse>;
  listSessions(query: SessionListQuery, signal?: AbortSignal): Promise<AdminSessionListResponse>;
  session(id: string, signal?: AbortSignal): Promise<AdminSessionDetail>;
  /** The session, or null when the engine no longer keeps it (a tournament's forfeited or void game). */
  keptSession(id: string, signal?: AbortSignal): Promise<AdminSessionDetail | null>;
  createSession(input: CreateSessionInput): Promise<AdminCreateSessionResponse>;
  recomputeScoring(): Promise<{ games: number }>;
  globalScoring(signal?: AbortSignal): Promise<ScoringEntry[]>;
  scoringByType(type: string, signal?: AbortSignal): Promise<Record<string, ScoringEntry[]>>;
}

export const REQUEST_TIMEOUT_MS = 15_000;
/** An upload is read, unpacked and checked before the answer: a large bundle on a busy machine takes a while. */
export const UPLOAD_TIMEOUT_MS = 180_000;

/** `/admin/api/v1/sessions?status=…`: empty filters are left out rather than sent as empty strings. */
export function sessionListPath(query: SessionListQuery): string {
  const params = new URLSearchParams();
  if (query.type) params.set('type', query.type);
  if (query.status) params.set('status', query.status);
  if (query.tournamentSessions === false) params.set('tournaments', 'hide');
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.offset !== undefined && query.offset > 0) params.set('offset', String(query.offset));
  const search = params.toString();
  return `${ADMIN_PREFIX}/sessions${search ? `?${search}` : ''}`;
}

function combineSignals(signal: AbortSignal | undefined, timeoutMs = REQUEST_TIMEOUT_MS): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

async function errorFromResponse(response: Response): Promise<Error> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON; fall back to the status line
  }
  const parsed = ErrorBodySchema.safeParse(body);
  const message = parsed.success ? parsed.data.error : `HTTP ${response.status} ${response.statusText}`.trim();
  if (response.status === 401) return new UnauthorizedError(message);
  // Admin routes add the error's kind and its per-field issues; other routes answer {error, code?} only.
  const admin = AdminErrorBodySchema.safeParse(body);
  if (admin.success) return new ApiError(response.status, message, admin.data.code, admin.data.kind, admin.data.issues ?? []);
  return new ApiError(response.status, message, parsed.success ? parsed.data.code : undefined);
}

export function createArenaClient(
  connection: { baseUrl: string; token: string | null },
  fetchImpl?: FetchFn,
  reachability?: ReachabilityHooks,
): ArenaClient {
  // Called through a wrapper: a bare reference to window.fetch stored on an object throws "Illegal invocation".
  const doFetch: FetchFn = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
  const base = connection.baseUrl.replace(/\/+$/, '');

  async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
    const headers: Record<string, string> = { Accept: accept };
    // The admin token goes only to admin routes: agent-facing routes must never see it (they read Bearer as a seat key).
    if (options.admin && connection.token !== null) headers.Authorization = `Bearer ${connection.token}`;
    if (options.raw) headers['Content-Type'] = options.raw.type;
    else if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method: options.method ?? 'GET',
        headers,
        body: options.raw ? options.raw.data : options.body === undefined ? null : JSON.stringify(options.body),
        signal: combineSignals(options.signal, options.timeoutMs),
        // The engine's session cookie (HttpOnly, scoped to the admin API) rides along same-origin admin calls only.
        credentials: options.admin ? 'same-origin' : 'omit',
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      reachability?.unreachable();
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      throw new EngineUnreachableError(
        timedOut
          ? `The engine at ${base} did not answer within ${(options.timeoutMs ?? REQUEST_TIMEOUT_MS) / 1000} s.`
          : `Cannot reach the engine at ${base}.`,
      );
    }
    reachability?.answered(response.ok);
    if (!response.ok) throw await errorFromResponse(response);
    return response;
  }

  async function request<S extends z.ZodType>(schema: S, path: string, options: RequestOptions): Promise<z.infer<S>> {
    const response = await send(path, options, 'application/json');
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      throw new ContractError(`${path} did not return JSON.`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ContractError(
        `Unexpected response from ${path.split('?')[0]}: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}`,
      );
    }
    return parsed.data;
  }

  return {
    baseUrl: base,
    call: request,
    text: async (path, signal) => (await send(path, { admin: true, signal }, '*/*')).text(),
    bytes: async (path, signal) => new Uint8Array(await (await send(path, { admin: true, signal }, '*/*')).arrayBuffer()),
    upload: (schema, path, file, signal) =>
      request(schema, path, {
        method: 'POST',
        raw: { data: file, type: 'application/octet-stream' },
        admin: true,
        signal,
        timeoutMs: UPLOAD_TIMEOUT_MS,
      }),
    overview: (signal) => request(OverviewResponseSchema, `${ADMIN_PREFIX}/overview`, { admin: true, signal }),
    listSessions: (query, signal) => request(AdminSessionListResponseSchema, sessionListPath(query), { admin: true, signal }),
    session: (id, signal) =>
      request(AdminSessionDetailSchema, `${ADMIN_PREFIX}/sessions/${encodeURIComponent(id)}`, { admin: true, signal }),
    keptSession: (id, signal) =>
      request(AdminKeptSessionResponseSchema, `${ADMIN_PREFIX}/sessions/${encodeURIComponent(id)}/kept`, { admin: true, signal }).then(
        (r) => r.kept,
      ),
    createSession: (input) =>
      request(AdminCreateSessionResponseSchema, `${ADMIN_PREFIX}/sessions`, { method: 'POST', body: input, admin: true }),
    recomputeScoring: () =>
      request(RecomputeResponseSchema, `${ADMIN_PREFIX}/scoring/recompute`, { method: 'POST', body: {}, admin: true }),
    globalScoring: (signal) => request(ScoringResponseSchema, '/api/scoring', { admin: false, signal }),
    scoringByType: (type, signal) =>
      request(ScoringByTypeResponseSchema, `/api/scoring/${encodeURIComponent(type)}`, { admin: false, signal }),
  };
}
