// Scripted models shared by the model-agent game tests: each walks the agent through the robustness paths (malformed
// JSON and its rethink, an illegal action and its fallback, a reply slower than the turn, a 429 then success) and then
// plays the game for real from what the prompt shows.
import { errorReply, lastUserText, openAiReply, type RecordedRequest, type ScriptedReply } from './fake-model-server.js';

const numbersIn = (text: string) => (text.match(/\d+/g) ?? []).map(Number);

/**
 * The scripted model. Calls 0-3 are fixed faults; afterwards it plays PSI for real from what the prompt shows: it
 * discloses its set, waits for the opponent's, sends one unreadable guess (refused by the operator), and then the
 * exact intersection when asked to rethink.
 */
export function psiScript(reply: (text: string, prompt: number, completion: number) => ScriptedReply, slowMs: number) {
  const served: { prompt: number; completion: number }[] = [];
  let sentBadGuess = false;
  const answer = (text: string): ScriptedReply => {
    const usage = { prompt: 200 + served.length * 7, completion: 10 + served.length };
    served.push(usage);
    return reply(text, usage.prompt, usage.completion);
  };
  const script = (request: RecordedRequest, index: number): ScriptedReply => {
    if (index === 0) return answer('Sure! Here is my move: {method: guess');
    if (index === 1) return answer('{"method": "steal", "content": "everything"}');
    if (index === 2) return { ...answer('{"wait": true}'), delayMs: slowMs };
    if (index === 3) return errorReply(429, { 'retry-after': '0.2' });
    const user = lastUserText(request);
    const messages = (request.body.messages ?? []) as { role: string; content: string }[];
    const state = messages.filter((m) => m.role === 'user').find((m) => m.content.includes('Operator messages:'))?.content ?? user;
    const own = numbersIn(/Your private set is: \{([^}]*)\}/.exec(state)?.[1] ?? '');
    if (index === 4) return answer(JSON.stringify({ chat: `My private set is: ${own.join(', ')}.` }));
    const theirs = numbersIn(/- player [^:]+: My private set is: ([^.]*)\./.exec(state)?.[1] ?? '');
    const common = own.filter((n) => theirs.includes(n));
    if (user.includes('rejected:') && common.length > 0) return answer(JSON.stringify({ method: 'guess', content: common.join(', ') }));
    if (/action guess: .* → accepted/.test(state) || theirs.length === 0) return answer('{"wait": true}');
    if (!sentBadGuess) {
      sentBadGuess = true;
      return answer('{"method": "guess", "content": "I think none of them"}');
    }
    return answer(JSON.stringify({ method: 'guess', content: common.join(', ') }));
  };
  return { script, served };
}

/** The first legal action and its example params, as the ClawArena prompt lists them. */
export function firstLegal(request: RecordedRequest): { action: string; params: Record<string, unknown> } {
  const messages = (request.body.messages ?? []) as { role: string; content: string }[];
  const prompt = messages.find((m) => m.role === 'user')?.content ?? '';
  const action = /Legal actions now:\n- "([^"]+)"/.exec(prompt)?.[1] ?? 'none';
  const params = JSON.parse(/example params: (\{.*\})/.exec(prompt)?.[1] ?? '{}') as Record<string, unknown>;
  return { action, params };
}

/**
 * ClawArena: prose (rethought into a legal move), an unknown action then params breaking the params_schema (the
 * server's fallback move), a reply past the turn, a 429 then success; afterwards the first legal action each turn.
 */
export function clawScript(slowMs: number) {
  return (request: RecordedRequest, index: number): ScriptedReply => {
    const legal = firstLegal(request);
    const good = openAiReply(JSON.stringify(legal), 300 + index, 12);
    switch (index) {
      case 0:
        return openAiReply('I will make the boldest move.', 300, 12);
      case 1:
        return good;
      case 2:
        return openAiReply('{"action": "cheat", "params": {}}', 302, 12);
      case 3:
        return openAiReply(JSON.stringify({ action: legal.action, params: { face: 'six' } }), 303, 12);
      case 4:
        return { ...good, delayMs: slowMs };
      case 5:
        return errorReply(429, { 'retry-after': '0.1' });
      default:
        return good;
    }
  };
}

/** PSI in one move: guesses one number of its own set once it has seen it, then waits (no faults); `delayMs` per answer. */
export function psiGuesser(delayMs = 0) {
  return (request: RecordedRequest): ScriptedReply => {
    const text = lastUserText(request);
    const first = /Your private set is: \{(\d+)/.exec(text)?.[1];
    const reply =
      !first || text.includes('action guess')
        ? openAiReply('{"wait": true}', 50, 5)
        : openAiReply(JSON.stringify({ method: 'guess', content: first }), 120, 12);
    return { ...reply, delayMs };
  };
}
