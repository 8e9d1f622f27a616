// Shared helpers for the ClawArena protocol tests: a client whose every response is validated against the published
// JSON Schemas and OpenAPI document (ajv) and the project's zod readers, and launchers for the baseline agents.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ErrorBodySchema, PollResponseSchema } from '../../../../engine/contract/clawarena.js';
import { CONFORMANCE_ROOT } from '../../../support/conformance.js';

export const ROOT = path.resolve(import.meta.dirname, '../../../..');
export const CONFORMANCE = path.join(CONFORMANCE_ROOT, 'clawarena');
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(CONFORMANCE, file), 'utf8'));

const OPENAPI_ID = 'https://aiclawarena.ai/openapi/agent-api-v1.json';
export const SCHEMA_IDS = {
  poll: 'https://aiclawarena.ai/schemas/poll-response.schema.json',
  action: 'https://aiclawarena.ai/schemas/action-request.schema.json',
  heartbeat: 'https://aiclawarena.ai/schemas/watcher-heartbeat.schema.json',
};

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

export const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema(readJson('schemas/poll-response.schema.json'));
ajv.addSchema(readJson('schemas/action-request.schema.json'));
ajv.addSchema(readJson('schemas/watcher-heartbeat.schema.json'));
export const openapi = readJson('openapi/agent-api-v1.json') as {
  paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; content?: Record<string, unknown> }> }>>;
  components: { responses: Record<string, unknown> };
};
ajv.addSchema({ ...openapi, $id: OPENAPI_ID });

export function schemaValidator(id: string): ValidateFunction {
  const validate = ajv.getSchema(id);
  if (!validate) throw new Error(`no schema ${id}`);
  return validate;
}

const escapePointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * The OpenAPI response schema of (method, path, status). Statuses the document does not list for an operation are
 * checked against its Error component when they are errors (provision's 400 and the catch-all 404 are not listed).
 */
export function openapiValidator(method: string, apiPath: string, status: number): ValidateFunction | null {
  const op = openapi.paths[apiPath]?.[method.toLowerCase()];
  if (!op) return status >= 400 ? schemaValidator(`${OPENAPI_ID}#/components/schemas/Error`) : null;
  const response = op.responses[String(status)];
  if (!response) {
    if (status >= 400) return schemaValidator(`${OPENAPI_ID}#/components/schemas/Error`);
    throw new Error(`OpenAPI lists no ${status} for ${method} ${apiPath}`);
  }
  let pointer = `/paths/${escapePointer(apiPath)}/${method.toLowerCase()}/responses/${status}`;
  if (response.$ref) pointer = response.$ref.slice(1);
  return schemaValidator(`${OPENAPI_ID}#${pointer}/content/application~1json/schema`);
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
}

export interface Exchange<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** Every response seen by a ValidatingClient and what it failed, so a test can assert there were no failures. */
export const validationFailures: string[] = [];
export let validatedResponses = 0;

function validateExchange(method: string, apiPath: string, exchange: Exchange): void {
  validatedResponses++;
  const fail = (what: string) => validationFailures.push(`${method} ${apiPath} -> ${exchange.status}: ${what}`);
  if (exchange.body === null || typeof exchange.body !== 'object' || Array.isArray(exchange.body)) fail('body is not a JSON object');
  if (!(exchange.headers.get('content-type') ?? '').startsWith('application/json')) fail('content-type is not JSON');
  const openapiCheck = openapiValidator(method, apiPath, exchange.status);
  if (openapiCheck && !openapiCheck(exchange.body)) fail(`OpenAPI: ${describeErrors(openapiCheck.errors)}`);
  if (exchange.status >= 400) {
    const parsed = ErrorBodySchema.safeParse(exchange.body);
    if (!parsed.success) fail(`error shape: ${parsed.error.message}`);
    if (exchange.status === 401 && (exchange.body as { code?: string }).code !== 'unauthorized') fail('401 without code unauthorized');
  }
  if (apiPath === '/agents/game/' && exchange.status === 200) {
    const poll = schemaValidator(SCHEMA_IDS.poll);
    if (!poll(exchange.body)) fail(`poll schema: ${describeErrors(poll.errors)}`);
    const zod = PollResponseSchema.safeParse(exchange.body);
    if (!zod.success) fail(`zod poll reader: ${zod.error.message}`);
    const body = exchange.body as { is_your_turn: boolean; legal_actions?: unknown[] };
    if (body.is_your_turn !== (body.legal_actions ?? []).length > 0) fail('legal_actions non-empty iff is_your_turn is violated');
  }
}

export class ValidatingClient {
  constructor(
    readonly base: string,
    readonly token?: string,
  ) {}

  async call<T = Record<string, unknown>>(
    method: string,
    apiPath: string,
    options: {
      body?: unknown;
      rawBody?: string;
      query?: Record<string, string | number>;
      token?: string | null;
      signal?: AbortSignal;
    } = {},
  ): Promise<Exchange<T>> {
    const url = new URL(`${this.base}${apiPath}`);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {};
    const token = options.token === undefined ? this.token : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.rawBody !== undefined || options.body !== undefined) {
      body = options.rawBody ?? JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(url, { method, headers, body, signal: options.signal });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    const exchange = { status: res.status, body: parsed as Record<string, unknown>, headers: res.headers };
    validateExchange(method, apiPath, exchange);
    return exchange as Exchange<T>;
  }

  poll(query: Record<string, string | number> = {}, token?: string) {
    return this.call<Poll>('GET', '/agents/game/', { query: { wait: 0, snapshot: 'full', ...query }, token });
  }

  async act(body: Record<string, unknown>, token?: string) {
    const exchange = await this.call<Record<string, unknown>>('POST', '/agents/action/', { body, token });
    if (exchange.status === 200) {
      // What the server acted on must be a valid published action request. Unknown top-level keys (our
      // action_window_id, or anything a client adds) are ignored by the server (spec §8.1), so they are left out.
      const published = Object.fromEntries(Object.entries(body).filter(([k]) => ['action', 'params', 'idempotency_key'].includes(k)));
      const check = schemaValidator(SCHEMA_IDS.action);
      if (!check(published)) validationFailures.push(`accepted action body fails the action schema: ${describeErrors(check.errors)}`);
    }
    return exchange;
  }

  heartbeat(body: Record<string, unknown> = { status: 'idle', feed_status: 'connected' }, token?: string) {
    const check = schemaValidator(SCHEMA_IDS.heartbeat);
    if (!check(body)) validationFailures.push(`heartbeat body fails the heartbeat schema: ${describeErrors(check.errors)}`);
    return this.call('POST', '/agents/watcher/', { body, token });
  }
}

export interface Poll {
  status: string;
  is_your_turn: boolean;
  match_id?: number;
  game_type?: string;
  seq?: string;
  action_window_id?: string;
  event_seq?: number;
  action_pending?: boolean;
  turn_deadline?: string;
  legal_actions: {
    action: string;
    params: Record<string, string>;
    hint: Record<string, unknown> & { server_fallback: { params: Record<string, unknown> } };
  }[];
  state: Record<string, unknown>;
  events: Record<string, unknown>[];
  result?: { winner_ids: number[]; placements: { agent_id: number; placement: number | null }[]; finish_reason: string };
  summary?: Record<string, unknown>;
  decision_context?: Record<string, unknown> & { stable: Record<string, unknown>; turn: Record<string, unknown> };
  resynced?: boolean;
  agent_preferences?: Record<string, unknown>;
}

/** The server's own fallback for the first legal action: a legal move for any seat, used to drive games in tests. */
export function fallbackMove(poll: Poll): { action: string; params: Record<string, unknown> } {
  const first = poll.legal_actions[0];
  if (!first) throw new Error('no legal action');
  return { action: first.action, params: { ...first.hint.server_fallback.params } };
}

export type AgentRuntime = 'python' | 'node';

/** Starts a baseline agent as a child process; resolves with its exit code and stderr. */
export function runBaselineAgent(
  runtime: AgentRuntime,
  baseUrl: string,
  token: string,
  extraEnv: Record<string, string> = {},
): { done: Promise<{ code: number | null; stderr: string }>; kill(): void } {
  const dir = path.join(ROOT, 'agents', 'clawarena', runtime === 'python' ? 'baseline-python' : 'baseline-node');
  const [cmd, script] = runtime === 'python' ? ['python3', 'agent.py'] : [process.execPath, 'agent.mjs'];
  const child = spawn(cmd, [script, '--matches', '1', '--wait', '10'], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      CLAWARENA_BASE_URL: baseUrl,
      CLAWARENA_CONNECTION_TOKEN: token,
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) => {
    child.once('exit', (code) => resolve({ code, stderr }));
  });
  return { done, kill: () => child.kill('SIGKILL') };
}

/** Seats the given tokens' agents through the lobby (they must share a lobby game) and returns their first polls. */
export async function seatThroughLobby(client: ValidatingClient, tokens: string[]): Promise<Poll[]> {
  for (const token of tokens) await client.poll({}, token);
  const polls: Poll[] = [];
  for (const token of tokens) polls.push((await client.poll({}, token)).body);
  return polls;
}

/** The seat whose turn it is among the given tokens, with its poll. */
export async function turnHolder(client: ValidatingClient, tokens: string[], query: Record<string, string | number> = {}) {
  for (const token of tokens) {
    const poll = (await client.poll(query, token)).body;
    if (poll.is_your_turn) return { token, poll };
  }
  return null;
}

/** A scheduled match that starts at once, with fresh agents; returns the seat tokens in seat order. */
export function scheduledMatch(
  service: {
    createMatch(r: { gameType: string; seats: { name: string }[]; waitForConnect: boolean; seed?: string }): { seats: { token: string }[] };
  },
  prefix: string,
  gameType = 'liars_dice',
  players = 2,
  seed?: string,
): string[] {
  const created = service.createMatch({
    gameType,
    seats: Array.from({ length: players }, (_, i) => ({ name: `${prefix}-${i}` })),
    waitForConnect: false,
    seed,
  });
  return created.seats.map((s) => s.token);
}
