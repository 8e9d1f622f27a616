// SpecArena: the challenge's prompt and methods come from /api/metadata, the operator's DMs and the player chat are the
// context, and the model answers {"method", "content"} to act, {"chat"} to talk or {"wait": true} to wait for news.
import { z } from 'zod';
import type { ChallengeMetadata, ChatMessage } from '../contract/specarena.js';
import { sleep } from './backoff.js';
import { parseAnswer } from './json-answer.js';
import { readLaunchContract } from './launch-contract.js';
import { type AdapterContext, JSON_ONLY_RULE, type ProtocolAdapter } from './protocol-adapter.js';
import { ArenaRefusal, SpecArenaClient } from './specarena-client.js';
import type { Interpretation } from './turn-engine.js';

const POLL_MIN_MS = 50;
const POLL_MAX_MS = 400;
/** While streaming, a quiet spell this long re-reads both channels over HTTP (a safety net, not a poll). */
const STREAM_RECHECK_MS = 1000;
/** After a fallback the question is asked again this soon, whether or not anything new arrived. */
const FALLBACK_REASK_MS = 200;

const AnswerSchema = z.union([
  z.strictObject({ method: z.string().min(1), content: z.string() }),
  z.strictObject({ chat: z.string().min(1) }),
  z.strictObject({ wait: z.literal(true) }),
]);
export type SpecArenaAction = z.infer<typeof AnswerSchema>;

interface Move {
  text: string;
  result: string;
}

export function specArenaSystemPrompt(metadata: ChallengeMetadata, base: string | undefined): string {
  const methods = metadata.methods.map((m) => `- "${m.name}": ${m.description}`).join('\n');
  return [
    base?.trim() || 'You are an AI agent playing a game against another agent in a private arena.',
    `Challenge: ${metadata.name}\n${metadata.prompt}`,
    `Actions you can send to the operator (field "method"):\n${methods}`,
    [
      'Each turn, answer in one of these forms:',
      '{"method": "<one of the action names above>", "content": "<the action text>"} to act,',
      '{"chat": "<message>"} to post on the chat channel the other players read,',
      '{"wait": true} to wait for new messages.',
      JSON_ONLY_RULE,
    ].join('\n'),
  ].join('\n\n');
}

export function interpretSpecArena(text: string, methods: readonly string[]): Interpretation<SpecArenaAction> {
  const parsed = parseAnswer(text, AnswerSchema);
  if (!parsed.ok) return { ok: false, cause: 'model_unparsable', error: parsed.error };
  const action = parsed.value;
  if ('method' in action && !methods.includes(action.method)) {
    return {
      ok: false,
      cause: 'model_illegal',
      error: `"${action.method}" is not an action of this challenge; use one of: ${methods.join(', ')}`,
    };
  }
  return { ok: true, action };
}

export class SpecArenaAdapter implements ProtocolAdapter {
  readonly protocol = 'specarena' as const;

  async run(context: AdapterContext): Promise<void> {
    const { engine, log } = context;
    const contract = readLaunchContract(context.env);
    const client = new SpecArenaClient(contract.url, contract.invite, contract.sessionKey);
    const joined = await client.join(contract.agentId);
    const challengeType = contract.challenge ?? joined.ChallengeInfo?.name;
    if (!challengeType) throw new Error('ARENA_CHALLENGE is not set and the join answer names no challenge');
    const metadata = await client.metadata(challengeType);
    const players = joined.ChallengeInfo?.players ?? 2;
    const methods = metadata.methods.map((m) => m.name);
    const system = specArenaSystemPrompt(metadata, context.systemPrompt);
    log(`joined ${client.challengeId} (${metadata.name})`);

    const moves: Move[] = [];
    let seen = 0;
    let askAt = Number.POSITIVE_INFINITY;
    let pollDelay = POLL_MIN_MS;
    let budgetSpent = false;
    // Waits end on the next message of the SSE stream; without one (or once it fails) the loop polls.
    client.follow();
    let taken = 0;
    let quiet = true;
    try {
      for (;;) {
        const streamed = client.received - taken;
        const arrived = client.streaming && !quiet ? streamed : streamed + (await client.refresh());
        taken = client.received;
        if (client.gameEnd()) break;
        const everyoneIn = client.joinOrder().length >= players;
        const total = client.operator.length + client.chat.length;
        // Acting before every seat is taken only earns "Game not running"; news (or the first look) prompts a question.
        if (everyoneIn && total > seen) askAt = Math.min(askAt, Date.now());
        if (everyoneIn && Date.now() >= askAt) {
          if (engine.turns >= context.maxTurns) {
            if (!budgetSpent) log(`turn budget of ${context.maxTurns} questions spent: waiting for the game to end`);
            budgetSpent = true;
            askAt = Number.POSITIVE_INFINITY;
          } else {
            seen = total;
            const result = await engine.play({
              messages: [
                { role: 'system', content: system },
                { role: 'user', content: describeState(client, moves, contract.invite) },
              ],
              interpret: (text) => interpretSpecArena(text, methods),
              execute: async (action) => {
                const outcome = await perform(client, action);
                if (outcome.ok || !('method' in action || 'chat' in action)) return outcome;
                moves.push({ text: moveText(action), result: `refused: ${outcome.error}` });
                return outcome;
              },
              fallback: { describe: 'wait', run: async () => {} },
            });
            if (result.source === 'fallback') {
              log(`turn ${engine.turns}: fallback (${result.cause})`);
              askAt = Date.now() + FALLBACK_REASK_MS;
            } else {
              const action = result.action;
              if (!('wait' in action)) moves.push({ text: moveText(action), result: 'accepted' });
              log(`turn ${engine.turns}: ${moveText(action)}`);
              askAt = Date.now() + context.idleReaskMs;
            }
            pollDelay = POLL_MIN_MS;
            continue;
          }
        }
        if (client.streaming) {
          // Until the next message, the next re-ask, or a quiet second (then one sync, as a safety net).
          quiet = !(await client.news(Math.max(0, Math.min(askAt - Date.now(), STREAM_RECHECK_MS))));
          continue;
        }
        pollDelay = arrived > 0 ? POLL_MIN_MS : Math.min(POLL_MAX_MS, Math.round(pollDelay * 1.5));
        await sleep(pollDelay);
      }
    } finally {
      client.close();
    }
    log('game ended');
  }
}

async function perform(client: SpecArenaClient, action: SpecArenaAction): Promise<{ ok: true } | { ok: false; error: string }> {
  try {
    if ('method' in action) await client.act(action.method, action.content);
    else if ('chat' in action) await client.say(action.chat);
    return { ok: true };
  } catch (error) {
    // A 4xx is the operator refusing the move (the model's fault); anything else is the harness's and ends the run.
    if (error instanceof ArenaRefusal && error.status >= 400 && error.status < 500)
      return { ok: false, error: error.message.replace(/^.*? -> \d+: /, '') };
    throw error;
  }
}

function moveText(action: SpecArenaAction): string {
  if ('method' in action) return `action ${action.method}: ${action.content}`;
  if ('chat' in action) return `chat: ${action.chat}`;
  return 'wait';
}

function who(m: ChatMessage, self: string): string {
  if (m.from === 'operator') return 'operator';
  return m.from === self ? 'you' : `player ${m.from.slice(0, 8)}`;
}

/** The user message of a turn: everything this seat may see, oldest first. */
export function describeState(client: SpecArenaClient, moves: readonly Move[], self: string): string {
  const operator = client.operator
    .filter((m) => !m.redacted && (m.to === undefined || m.to === null || m.to === self))
    .map((m) => `- ${m.to === self ? '(to you) ' : ''}${m.content}`);
  const chat = client.chat.filter((m) => !m.redacted).map((m) => `- ${who(m, self)}: ${m.content}`);
  const history = moves.map((m) => `- ${m.text} → ${m.result}`);
  return [
    `Operator messages:\n${operator.length > 0 ? operator.join('\n') : '(none)'}`,
    `Chat:\n${chat.length > 0 ? chat.join('\n') : '(none)'}`,
    `Your moves so far:\n${history.length > 0 ? history.join('\n') : '(none)'}`,
    'What do you do now? Answer with one JSON object.',
  ].join('\n\n');
}
