// ClawArena: long-poll the agent API for one match; on each turn the model sees the game state, recent events and the
// legal actions with their params_schema, and answers {"action", "params"}. Params are checked against the schema
// before sending; a server rejection counts as illegal too. The fallback is the server's own fallback move.
import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { sleep } from './backoff.js';
import { parseAnswer } from './json-answer.js';
import { type AdapterContext, JSON_ONLY_RULE, type ProtocolAdapter } from './protocol-adapter.js';
import type { Interpretation } from './turn-engine.js';

const LONG_POLL_SECONDS = 10;
/** Room left before the server's turn deadline, so our move (or fallback) still lands in the window. */
const DEADLINE_MARGIN_MS = 1500;
const STATE_CAP_CHARS = 12_000;
const RECENT_EVENTS = 20;

export interface LegalAction {
  action: string;
  description?: string;
  params_schema?: unknown;
  hint?: { server_fallback?: { params?: Record<string, unknown> } } & Record<string, unknown>;
}

interface PollEnvelope {
  status: string;
  is_your_turn?: boolean;
  match_id?: number;
  game_type?: string;
  seq?: string;
  action_window_id?: string;
  action_pending?: boolean;
  turn_deadline?: string;
  legal_actions?: LegalAction[];
  state?: unknown;
  events?: unknown[];
  /** `{title, rules: string[]}` (engine/contract/clawarena.ts RulesBriefSchema); a string from another server. */
  game_rules_brief?: unknown;
  /** `{objective, priorities, cautions}`, or null. */
  strategy_brief?: unknown;
  result?: unknown;
}

const AnswerSchema = z.strictObject({ action: z.string().min(1), params: z.record(z.string(), z.unknown()).default({}) });
export type ClawMove = z.infer<typeof AnswerSchema>;

/** Keys sorted at every level: the idempotency key of a move must not depend on key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The schema as zod, or null when it uses something zod cannot express (the server still validates). */
function paramsValidator(schema: unknown): z.ZodType | null {
  if (schema === undefined || schema === null || typeof schema !== 'object') return null;
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return null;
  }
}

export function interpretClawArena(text: string, legal: readonly LegalAction[]): Interpretation<ClawMove> {
  const parsed = parseAnswer(text, AnswerSchema);
  if (!parsed.ok) return { ok: false, cause: 'model_unparsable', error: parsed.error };
  const move = parsed.value;
  const spec = legal.find((a) => a.action === move.action);
  if (!spec)
    return {
      ok: false,
      cause: 'model_illegal',
      error: `"${move.action}" is not a legal action now; choose one of: ${legal.map((a) => a.action).join(', ')}`,
    };
  const validator = paramsValidator(spec.params_schema);
  const checked = validator?.safeParse(move.params);
  if (checked && !checked.success) {
    return {
      ok: false,
      cause: 'model_illegal',
      error: `params of "${move.action}" do not match its params_schema: ${z.prettifyError(checked.error)}`,
    };
  }
  return { ok: true, action: move };
}

/**
 * A brief as the model reads it: its title, then each list as "- " lines under its name (`rules`, `priorities`…), other
 * text fields as "name: text". The briefs are objects; interpolated as they are, the prompt said "[object Object]".
 */
function briefText(brief: unknown): string {
  if (typeof brief === 'string') return brief;
  if (typeof brief !== 'object' || brief === null) return JSON.stringify(brief);
  const lines: string[] = [];
  for (const [key, value] of Object.entries(brief)) {
    if (key === 'title' && typeof value === 'string') lines.unshift(value);
    else if (Array.isArray(value)) lines.push(`${key}:`, ...value.map((v) => `- ${typeof v === 'string' ? v : JSON.stringify(v)}`));
    else lines.push(`${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  return lines.join('\n');
}

export function clawArenaSystemPrompt(poll: PollEnvelope, base: string | undefined): string {
  return [
    base?.trim() || 'You are an AI agent playing a game against other agents in a private arena.',
    `Game: ${poll.game_type ?? 'unknown'}`,
    poll.game_rules_brief ? `Rules:\n${briefText(poll.game_rules_brief)}` : '',
    poll.strategy_brief ? `Strategy notes:\n${briefText(poll.strategy_brief)}` : '',
    [
      'On your turn, answer {"action": "<one of the legal actions>", "params": {<parameters matching its params_schema>}}.',
      JSON_ONLY_RULE,
    ].join('\n'),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}

export function describeTurn(poll: PollEnvelope): string {
  let state = JSON.stringify(poll.state ?? {}, null, 1);
  if (state.length > STATE_CAP_CHARS) state = `${state.slice(0, STATE_CAP_CHARS)}\n…(cut)`;
  const events = (poll.events ?? []).slice(-RECENT_EVENTS).map((e) => `- ${JSON.stringify(e)}`);
  const actions = (poll.legal_actions ?? []).map((a) =>
    [
      `- "${a.action}": ${a.description ?? ''}`,
      `  params_schema: ${JSON.stringify(a.params_schema ?? {})}`,
      `  example params: ${JSON.stringify(a.hint?.server_fallback?.params ?? {})}`,
    ].join('\n'),
  );
  return [
    `Game state:\n${state}`,
    `Recent events:\n${events.length > 0 ? events.join('\n') : '(none)'}`,
    `Legal actions now:\n${actions.join('\n')}`,
    'Your move? Answer with one JSON object.',
  ].join('\n\n');
}

export class ClawArenaAdapter implements ProtocolAdapter {
  readonly protocol = 'clawarena' as const;

  async run(context: AdapterContext): Promise<void> {
    const { engine, log, env } = context;
    const base = (env.CLAWARENA_BASE_URL || env.CLAWARENA_BASE || '').replace(/\/+$/, '');
    const token = (env.CLAWARENA_CONNECTION_TOKEN || '').trim();
    if (!base || !token) throw new Error('CLAWARENA_BASE_URL and CLAWARENA_CONNECTION_TOKEN must be set');
    const call = async (
      method: 'GET' | 'POST',
      path: string,
      options: { body?: unknown; query?: Record<string, string | number>; auth?: boolean } = {},
    ) => {
      const url = new URL(base + path);
      for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
      const headers: Record<string, string> = { 'user-agent': 'local-arena-model-agent/1' };
      if (options.auth !== false) headers.authorization = `Bearer ${token}`;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout((LONG_POLL_SECONDS + 20) * 1000),
      });
      const json: unknown = await res.json().catch(() => ({}));
      return { status: res.status, body: (json !== null && typeof json === 'object' ? json : {}) as Record<string, unknown> };
    };

    const schema = await call('GET', '/agents/schema/', { auth: false });
    if (schema.status !== 200) throw new Error(`ClawArena schema discovery failed: HTTP ${schema.status}`);
    const heartbeat = (schema.body.heartbeat ?? {}) as { body_template?: Record<string, unknown>; grace_seconds?: number };
    const heartbeatEveryMs = Math.max(15, (heartbeat.grace_seconds ?? 90) - 30) * 1000;
    const hello = await call('POST', '/agents/watcher/', { body: { ...heartbeat.body_template, client: 'local-arena-model-agent' } });
    if (hello.status === 401) throw new Error('the ClawArena token was refused');
    let lastHeartbeat = Date.now();

    const contextId = randomUUID().replaceAll('-', '');
    const acted = new Set<string>();
    let first = true;
    let failures = 0;
    for (;;) {
      const query: Record<string, string | number> = { wait: LONG_POLL_SECONDS, snapshot: 'full' };
      if (first) Object.assign(query, { consume_history: 1, resync: 1, context_id: contextId });
      let poll: { status: number; body: Record<string, unknown> };
      try {
        poll = await call('GET', '/agents/game/', { query });
      } catch (error) {
        if (++failures > 20) throw error;
        await sleep(Math.min(10, failures) * 500);
        continue;
      }
      failures = 0;
      if (poll.status === 401) throw new Error('the ClawArena token was refused');
      if (poll.status !== 200) {
        await sleep(1000);
        continue;
      }
      first = false;
      const envelope = poll.body as unknown as PollEnvelope;
      if (envelope.status === 'finished') {
        log(`match ${envelope.match_id} finished: ${JSON.stringify(envelope.result ?? null)}`);
        return;
      }
      if (envelope.status !== 'playing') {
        if (Date.now() - lastHeartbeat > heartbeatEveryMs) {
          await call('POST', '/agents/watcher/', { body: { status: 'idle', feed_status: 'connected' } });
          lastHeartbeat = Date.now();
        }
        continue;
      }
      const windowId = envelope.action_window_id ?? envelope.seq ?? '';
      const legal = envelope.legal_actions ?? [];
      if (!envelope.is_your_turn || envelope.action_pending || acted.has(windowId) || legal.length === 0) continue;
      acted.add(windowId);

      const send = async (move: ClawMove, key: string) => call('POST', '/agents/action/', { body: { ...move, idempotency_key: key } });
      const serverFallback = (): ClawMove => ({
        action: legal[0]?.action ?? '',
        params: { ...(legal[0]?.hint?.server_fallback?.params ?? {}) },
      });
      const fallback = {
        describe: `server fallback: ${canonical(serverFallback())}`,
        run: async () => {
          const reply = await send(serverFallback(), `${envelope.seq}-fallback`);
          if (reply.status >= 400) log(`server fallback refused: HTTP ${reply.status} ${canonical(reply.body)}`);
        },
      };
      if (engine.turns >= context.maxTurns) {
        log(`turn budget of ${context.maxTurns} questions spent: playing the server fallback`);
        await fallback.run();
        continue;
      }
      const deadline = envelope.turn_deadline ? Date.parse(envelope.turn_deadline) : Number.NaN;
      const result = await engine.play(
        {
          messages: [
            { role: 'system', content: clawArenaSystemPrompt(envelope, context.systemPrompt) },
            { role: 'user', content: describeTurn(envelope) },
          ],
          interpret: (text) => interpretClawArena(text, legal),
          execute: async (move) => {
            const key = `${envelope.seq}-${createHash('sha256').update(canonical(move)).digest('hex').slice(0, 16)}`;
            const reply = await send(move, key);
            if (reply.status < 300) return { ok: true };
            if (reply.status >= 500) throw new Error(`ClawArena action failed: HTTP ${reply.status}`);
            const error = reply.body.error as { code?: string; message?: string } | string | undefined;
            const text =
              typeof error === 'string'
                ? error
                : [error?.code ?? reply.body.code, error?.message ?? reply.body.message].filter(Boolean).join(': ');
            return { ok: false, error: `the server rejected the move (HTTP ${reply.status}${text ? `: ${text}` : ''})` };
          },
          fallback,
        },
        Number.isNaN(deadline) ? {} : { timeoutMs: deadline - Date.now() - DEADLINE_MARGIN_MS },
      );
      log(`turn ${engine.turns}: ${result.source === 'fallback' ? `fallback (${result.cause})` : canonical(result.action)}`);
    }
  }
}
