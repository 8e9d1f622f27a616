// Acceptance 8: random path segments, query strings, headers and bodies on every route never produce a 5xx,
// and every 4xx is a JSON error body.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/http.js';
import { createSession, join } from '../../support/psi.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { SseStream } from '../../support/sse.js';

const RUNS = 60;

let server: TestServer;
let authServer: TestServer;
/** Real ids, so some random requests hit existing sessions and invites. */
const known: string[] = [];

const QUERY_KEYS = [
  'channel',
  'index',
  'from',
  'limit',
  'offset',
  'status',
  'ids',
  'since',
  'key',
  'challengeId',
  '__proto__',
  'constructor',
];
const BODY_KEYS = [
  'invite',
  'userId',
  'challengeId',
  'content',
  'messageType',
  'from',
  'channel',
  'to',
  'inviteId',
  'username',
  'model',
  'publicKey',
  'signature',
  'timestamp',
  '__proto__',
  'jsonrpc',
  'method',
  'id',
  'params',
];
const NASTY = [
  '',
  ' ',
  'NaN',
  '-1',
  '0',
  '1e400',
  '99999999999999999999',
  '1.5',
  'null',
  'undefined',
  'viewer',
  'operator',
  '%00',
  '\u0000',
  '__proto__',
  'constructor',
  'challenge_',
  'psi',
  's_0.1.abc',
  'a'.repeat(2000),
  '../../etc/passwd',
  '{"a":1}',
  '😀',
];

const text = () =>
  fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom(...NASTY),
    fc.constantFrom(...known),
    fc.uuid().map((u) => `challenge_${u}`),
  );
const segment = () =>
  fc.oneof(
    text().map((s) => encodeURIComponent(s)),
    fc.constantFrom('%', '%zz', '%E0%A4%A', '..', '.', '%2F', 'psi'),
  );
/** Number-like strings, biased to the extremes that overflow SQLite integers or Number(). */
const numberish = () =>
  fc.oneof(
    fc.bigInt().map(String),
    fc.double().map(String),
    fc.integer().map(String),
    fc.constantFrom('99999999999999999999', '-99999999999999999999', '9007199254740993', '1e400', '1e-7', '0x10', ' 5 ', '+3'),
  );
const query = () =>
  fc
    .array(
      fc.tuple(
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...QUERY_KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) }),
        fc.oneof(text(), numberish()),
      ),
      { maxLength: 6 },
    )
    .map((pairs) => {
      const params = new URLSearchParams();
      for (const [k, v] of pairs) params.append(k, v);
      const qs = params.toString();
      return qs ? `?${qs}` : '';
    });
const jsonValue = () => fc.oneof(fc.jsonValue({ maxDepth: 2 }), text(), fc.integer(), fc.constantFrom(...known));
const body = () =>
  fc.oneof(
    fc.constant(undefined),
    fc.string({ maxLength: 60 }),
    fc.json({ maxDepth: 3 }),
    fc.dictionary(fc.constantFrom(...BODY_KEYS), jsonValue(), { maxKeys: 6 }).map((o) => JSON.stringify(o)),
    fc.constantFrom('{', '[]', 'null', '""', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}'),
  );
/** Header values must be visible ASCII, or fetch refuses to send them. */
const headerText = () => text().map((t) => t.replace(/[^\x20-\x7e]/g, ''));
const headers = () =>
  fc.record(
    {
      'content-type': fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=utf-8',
        '',
      ),
      authorization: fc.oneof(
        headerText().map((t) => `Bearer ${t}`),
        headerText(),
        fc.constantFrom(`Bearer s_0.${'9'.repeat(12)}.${'a'.repeat(64)}`, 'Bearer a_0.1.x'),
      ),
      accept: fc.constantFrom('application/json, text/event-stream', 'application/json', '*/*'),
      'last-event-id': headerText(),
    },
    { requiredKeys: [] },
  );

interface Route {
  method: 'GET' | 'POST';
  /** Builds the path from random segments. */
  path: (seg: string) => string;
  sse?: boolean;
}

const ROUTES: Route[] = [
  { method: 'GET', path: () => '/health' },
  { method: 'GET', path: () => '/skill.md' },
  { method: 'GET', path: () => '/api/metadata' },
  { method: 'GET', path: (s) => `/api/metadata/${s}` },
  { method: 'GET', path: () => '/api/challenges' },
  { method: 'GET', path: (s) => `/api/challenges/${s}` },
  { method: 'POST', path: (s) => `/api/challenges/${s}` },
  { method: 'GET', path: (s) => `/api/v1/invites/${s}` },
  { method: 'POST', path: () => '/api/invites' },
  { method: 'POST', path: () => '/api/arena/join' },
  { method: 'POST', path: () => '/api/arena/message' },
  { method: 'GET', path: () => '/api/arena/sync' },
  { method: 'POST', path: () => '/api/chat/send' },
  { method: 'GET', path: () => '/api/chat/sync' },
  { method: 'GET', path: (s) => `/api/chat/ws/${s}`, sse: true },
  { method: 'GET', path: () => '/api/scoring' },
  { method: 'GET', path: (s) => `/api/scoring/${s}` },
  { method: 'GET', path: () => '/api/stats' },
  { method: 'GET', path: () => '/api/users' },
  { method: 'GET', path: () => '/api/users/batch' },
  { method: 'GET', path: (s) => `/api/users/${s}` },
  { method: 'GET', path: (s) => `/api/users/${s}/scores` },
  { method: 'GET', path: (s) => `/api/users/${s}/challenges` },
  { method: 'POST', path: () => '/api/users' },
  { method: 'POST', path: () => '/api/arena/mcp' },
  { method: 'POST', path: () => '/api/chat/mcp' },
  { method: 'GET', path: () => '/admin/api/v1/overview' },
  { method: 'POST', path: () => '/__test__/reset' },
  { method: 'POST', path: (s) => `/api/v1/${s}` },
];

/** One random request; returns a description of what went wrong, or null. */
async function probe(
  base: string,
  route: Route,
  seg: string,
  qs: string,
  rawBody: string | undefined,
  hdrs: Record<string, string>,
): Promise<string | null> {
  const url = `${base}${route.path(seg)}${qs}`;
  const sendHeaders = Object.fromEntries(Object.entries(hdrs).filter(([, v]) => v !== ''));
  if (route.sse) {
    const stream = await SseStream.open(url, sendHeaders);
    try {
      if (stream.status >= 500) return `status ${stream.status}`;
      if (stream.status === 200) {
        const first = await stream.next(3000);
        if (first.json?.type !== 'initial') return `first frame ${first.data}`;
        return null;
      }
      if (!(stream.headers.get('content-type') ?? '').startsWith('application/json')) return `non-JSON ${stream.status}`;
      return null;
    } finally {
      stream.close();
    }
  }
  const res = await fetch(url, { method: route.method, headers: sendHeaders, body: route.method === 'POST' ? rawBody : undefined });
  const bodyText = await res.text();
  if (res.status >= 500) return `status ${res.status}: ${bodyText.slice(0, 200)}`;
  if (res.status >= 400) {
    if (!(res.headers.get('content-type') ?? '').startsWith('application/json')) return `non-JSON ${res.status}: ${bodyText.slice(0, 100)}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(bodyText);
    } catch {
      return `unparsable ${res.status} body: ${bodyText.slice(0, 100)}`;
    }
    const error = (parsed as { error?: unknown } | null)?.error;
    // SpecArena errors are strings; MCP errors are JSON-RPC error objects.
    if (typeof error !== 'string' && !(route.path('').endsWith('/mcp') && typeof error === 'object' && error !== null)) {
      return `4xx without an error field: ${bodyText.slice(0, 100)}`;
    }
  }
  return null;
}

function checkRoutes(getBase: () => string, routes: Route[], runs: number) {
  for (const route of routes) {
    it(`${route.method} ${route.path(':param')}`, async () => {
      await fc.assert(
        fc.asyncProperty(segment(), query(), body(), headers(), async (seg, qs, rawBody, hdrs) => {
          const problem = await probe(getBase(), route, seg, qs, rawBody, hdrs as Record<string, string>);
          expect(problem, `${route.method} ${route.path(seg)}${qs} body=${rawBody}`).toBeNull();
        }),
        { numRuns: route.sse ? Math.ceil(runs / 2) : runs },
      );
    });
  }
}

beforeAll(async () => {
  server = await startTestServer();
  authServer = await startTestServer({ authMode: true });
  for (const base of [server.url, authServer.url]) {
    const c = client(base);
    const s = await createSession(c);
    known.push(s.id, `challenge_${s.id}`, ...s.invites);
    if (base === server.url) await join(c, s.invites[0] as string, 'prop-user');
  }
  known.push('prop-user');
});
afterAll(async () => {
  await server?.close();
  await authServer?.close();
});

describe('random input never yields a 5xx (standalone)', () => {
  checkRoutes(() => server.url, ROUTES, RUNS);
});

describe('random input never yields a 5xx (auth mode)', () => {
  const authRoutes = ROUTES.filter((r) =>
    ['/api/arena/join', '/api/users', '/api/chat/send', '/api/arena/message', '/api/arena/sync', '/api/chat/ws/'].some((p) =>
      r.path('').startsWith(p),
    ),
  );
  checkRoutes(() => authServer.url, authRoutes, 30);
});
