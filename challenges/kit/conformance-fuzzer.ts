// The conformance kit's fuzzer: the random actions of a play (joins in random order, legal and illegal messages,
// strangers, unknown methods, garbage), drawn from a seeded RNG so a seed replays the same play.
import type { Rng } from '../../engine/core/rng.js';
import type { Action, ConformanceMetadata, ConformanceTarget, PlayerView, SentMessage } from './conformance-types.js';

/** A caller that holds no invite. */
const STRANGER = 'mallory';

export function invitesFor(players: number): string[] {
  return Array.from({ length: players }, (_, i) => `inv_seat${i}`);
}

/** Quoted examples in method descriptions and the prompt ("60 40", "external", ...): cheap legal moves for the fuzzer. */
function quotedExamples(metadata: ConformanceMetadata, method: string): string[] {
  const texts = [metadata.methods.find((m) => m.name === method)?.description ?? '', metadata.prompt ?? ''];
  const out: string[] = [];
  for (const text of texts) for (const match of text.matchAll(/"([^"]{0,200})"/g)) out.push(match[1] ?? '');
  return out;
}

function numbersIn(texts: readonly string[]): number[] {
  return texts.flatMap((t) => (t.match(/\d+/g) ?? []).map(Number)).filter((n) => Number.isSafeInteger(n));
}

function numericOptions(options: Readonly<Record<string, unknown>>): number[] {
  const out: number[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(options);
  return out;
}

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.nextInt(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** A content string for `method`: legal-looking most of the time, garbage some of the time. */
function randomContent(target: ConformanceTarget, method: string, view: PlayerView, rng: Rng): string {
  const seenNumbers = numbersIn([...view.dms, ...view.broadcasts]);
  const candidates: (() => string)[] = [
    () => rng.pick(['', '   ', 'hello', '-5', 'NaN', '1e9', 'x'.repeat(300), '{}', '\u00e9\u00e8 \u2603']),
    () => String(rng.nextInt(0, 1000)),
    () => rng.pick([...view.invites, 'inv_unknown', STRANGER]),
  ];
  const examples = quotedExamples(target.metadata, method);
  if (examples.length > 0) candidates.push(() => rng.pick(examples));
  if (seenNumbers.length > 0) {
    candidates.push(() => String(rng.pick(seenNumbers)));
    candidates.push(() => shuffled(rng, seenNumbers).slice(0, rng.nextInt(1, seenNumbers.length)).join(', '));
  }
  const totals = numericOptions(view.options);
  if (totals.length > 0) {
    // N amounts summing to an option value: how a split offer looks in most negotiation games.
    candidates.push(() => {
      const total = rng.pick(totals);
      const parts: number[] = [];
      let left = total;
      for (let i = 0; i < view.invites.length - 1; i++) {
        const part = rng.nextInt(0, left);
        parts.push(part);
        left -= part;
      }
      parts.push(left);
      return parts.join(' ');
    });
  }
  const extra = target.hooks?.contents?.(method, view, rng) ?? [];
  if (extra.length > 0) candidates.push(() => rng.pick(extra));
  return rng.pick(candidates)();
}

function viewOf(
  target: ConformanceTarget,
  invites: string[],
  players: readonly string[],
  sent: readonly SentMessage[],
  invite: string,
): PlayerView {
  return {
    invite,
    playerIndex: players.indexOf(invite),
    invites,
    dms: sent.filter((m) => m.to === invite).map((m) => m.content),
    broadcasts: sent.filter((m) => m.to === undefined).map((m) => m.content),
    options: target.options as unknown as Record<string, unknown>,
  };
}

export function randomAction(
  target: ConformanceTarget,
  rng: Rng,
  invites: string[],
  players: readonly string[],
  sent: readonly SentMessage[],
): Action {
  const unjoined = invites.filter((i) => !players.includes(i));
  const roll = rng.next();
  if (unjoined.length > 0 && roll < 0.6) {
    const invite = rng.pick(unjoined);
    return { kind: 'join', invite, userId: `user-${invite}` };
  }
  if (players.length > 0 && roll > 0.97) {
    const invite = rng.pick(players);
    return { kind: 'join', invite, userId: `user-${invite}` };
  }
  const from = rng.next() < 0.05 ? STRANGER : rng.pick(invites);
  const methods = target.metadata.methods.map((m) => m.name);
  const methodRoll = rng.next();
  const type = methodRoll < 0.04 ? undefined : methodRoll < 0.08 ? '' : methodRoll < 0.12 ? 'no_such_method' : rng.pick(methods);
  const content = randomContent(target, type ?? '', viewOf(target, invites, players, sent, from), rng);
  return { kind: 'message', from, type, content };
}
