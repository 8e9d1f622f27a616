// Conformance kit: framework-free checks every challenge must pass (run for each folder by test/challenges/conformance.test.ts).
// Std code like the operators: no Node imports, deterministic given a seed. This file is the driver (random play, the
// privacy twins); each check is an object in conformance-checks.ts. Checks return violations instead of throwing, so a
// test can print all of them at once. Shipped in dist with the challenges, for challenge authors (challenges/README.md).
import type { ChatMessage } from '../../engine/contract/specarena.js';
import { createRng, type Rng } from '../../engine/core/rng.js';
import { ends, firstDifference, jsonSafe, maxActionsValid, restores, STEP_CHECKS, show } from './conformance-checks.js';
import type {
  Action,
  ApplyResult,
  CheckName,
  ConformanceMetadata,
  ConformanceTarget,
  Finding,
  PlayerView,
  PlayOptions,
  PlayRecord,
  SentMessage,
  StepFacts,
  StepOutcome,
  Violation,
} from './conformance-types.js';
import { type ChallengeOperator, type OperatorContext, OperatorError, type OperatorSnapshot } from './operator-base.js';

export { firstDifference } from './conformance-checks.js';
export type {
  Action,
  CheckName,
  ConformanceHooks,
  ConformanceMetadata,
  ConformanceTarget,
  PlayerView,
  PlayOptions,
  PlayRecord,
  SentMessage,
  StepOutcome,
  Violation,
} from './conformance-types.js';

const START = 1_700_000_000_000;
const STRANGER = 'mallory';

// ---- recording context -------------------------------------------------------------------------------------

export interface Recorder {
  ctx: OperatorContext;
  sent: SentMessage[];
  endEvents: number;
  /** The clock the driver moves; now() never advances by itself, so live and rebuilt operators read the same time. */
  clock: { now: number };
}

export function recordingContext(challengeId: string, secret: string, clock: { now: number } = { now: START }): Recorder {
  const recorder: Recorder = {
    sent: [],
    endEvents: 0,
    clock,
    ctx: {
      challengeId,
      now: () => clock.now,
      seed: (purpose) => `${secret}/${purpose}`,
      messaging: {
        sendMessage: (channel, from, content, to) => recorder.sent.push(message(channel, from, content, to)),
        sendChallengeMessage: (id, from, content, to) => recorder.sent.push(message(`challenge_${id}`, from, content, to)),
        broadcastChallengeEvent: () => {
          recorder.endEvents++;
        },
      },
    },
  };
  return recorder;
}

function message(channel: string, from: string, content: string, to?: string): SentMessage {
  return to === undefined ? { channel, from, content } : { channel, from, content, to };
}

/** What the store does to a snapshot: JSON text and back. */
function viaJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

// ---- methods -------------------------------------------------------------------------------------------------

/** Every method in the metadata has a handler and every handler is listed in the metadata. */
export function checkMethods(target: ConformanceTarget): Violation[] {
  const recorder = recordingContext(`methods-${target.id}`, 'methods');
  const operator = target.module.createOperator(recorder.ctx, target.options, target.module.createGameState(recorder.ctx, target.options));
  const handled = new Set(operator.methods);
  const listed = target.metadata.methods.map((m) => m.name);
  const out: Violation[] = [];
  const seen = new Set<string>();
  for (const name of listed) {
    if (seen.has(name)) out.push({ check: 'methods', message: `method "${name}" is listed twice in challenge.json` });
    seen.add(name);
    if (!handled.has(name)) out.push({ check: 'methods', message: `method "${name}" is in challenge.json but has no handler` });
  }
  for (const name of handled) {
    if (!seen.has(name)) out.push({ check: 'methods', message: `handler "${name}" is not listed in challenge.json methods` });
  }
  if (target.metadata.players !== target.options.players) {
    out.push({
      check: 'methods',
      message: `metadata players (${target.metadata.players}) differs from options.players (${target.options.players})`,
    });
  }
  return out;
}

// ---- random play ---------------------------------------------------------------------------------------------

function invitesFor(players: number): string[] {
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

function randomAction(
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

type Operator = ChallengeOperator<object>;

function applyAction(operator: Operator, action: Action, recorder: Recorder, challengeId: string): ApplyResult {
  try {
    if (action.kind === 'join') operator.join(action.invite, action.userId);
    else {
      const msg: ChatMessage & { type?: string } = {
        channel: challengeId,
        from: action.from,
        content: action.content,
        timestamp: recorder.clock.now,
      };
      if (action.type !== undefined) msg.type = action.type;
      operator.message(msg);
    }
    return { ok: true };
  } catch (error) {
    if (error instanceof OperatorError) return { ok: false, code: error.code };
    return { ok: false, crash: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/**
 * Plays one game the way the engine runs it: before every action the operator is rebuilt from its JSON snapshot
 * (createOperator + restore), and the same action is also applied to a long-lived operator. Checks on every step:
 * the snapshot survives JSON (`json-safe`), restore(serialize(x)) equals x (`restore`), the rebuilt and the live operator
 * behave identically (`replay`), a refused action changes nothing (`atomic-rejection`), only OperatorErrors are thrown
 * (`operator-crash`), the game ends (`ends`) within maxActions accepted actions (`max-actions`), and an ended game refuses
 * everything (`end-state`).
 */
export function playGame(target: ConformanceTarget, seed: string, options: PlayOptions = {}): PlayRecord {
  const { module } = target;
  const challengeId = `conf-${target.id}-${seed}`;
  const secret = options.secret ?? 'secret-a';
  const invites = invitesFor(target.metadata.players);
  const clock = { now: START };
  const rng = createRng(`conformance:${seed}`);
  const live = recordingContext(challengeId, secret, clock);
  const initialGameState = module.createGameState(live.ctx, target.options);
  const operator: Operator = module.createOperator(live.ctx, target.options, viaJson(initialGameState));
  const record: PlayRecord = {
    challengeId,
    invites,
    actions: [],
    outcomes: [],
    initialGameState: viaJson(initialGameState),
    ended: false,
    accepted: 0,
    violations: [],
  };
  /** Records what a check found; true when the play must stop. */
  const report = (check: { name: CheckName }, finding: Finding | null, step?: number): boolean => {
    for (const message of finding?.messages ?? [])
      record.violations.push({ check: check.name, message, ...(step === undefined ? {} : { step }) });
    return finding?.stop === true;
  };

  const max = module.maxActions(target.options);
  report(maxActionsValid, maxActionsValid.run(max));
  const maxSteps = options.script ? options.script.length : (options.maxSteps ?? 600);
  let afterEndLeft = options.script ? 0 : (options.afterEnd ?? 5);

  play: for (let step = 0; step < maxSteps; step++) {
    if (record.ended && afterEndLeft-- <= 0) break;
    clock.now = START + (step + 1) * 1000;
    const before = operator.serialize();
    const stored = viaJson(before);
    if (report(jsonSafe, jsonSafe.run(before, stored), step)) break;
    const rebuiltRecorder = recordingContext(challengeId, secret, clock);
    const rebuilt: Operator = module.createOperator(rebuiltRecorder.ctx, target.options, viaJson(stored.gameState));
    rebuilt.restore(viaJson(stored) as OperatorSnapshot<object>);
    if (report(restores, restores.run(before, rebuilt.serialize()), step)) break;

    const action = options.script?.[step] ?? randomAction(target, rng, invites, operator.state.players, live.sent);
    record.actions.push(action);
    const statusBefore = operator.state.status;
    const liveMark = live.sent.length;
    const endEventsBefore = live.endEvents;
    const liveResult = applyAction(operator, action, live, challengeId);
    const rebuiltResult = applyAction(rebuilt, action, rebuiltRecorder, challengeId);
    const sent = live.sent.slice(liveMark);
    const after = operator.serialize();
    const statusAfter = operator.state.status;
    const accepted = liveResult.ok && action.kind === 'message' && statusBefore === 'active';
    const outcome: StepOutcome = { ok: liveResult.ok, sent, statusBefore, statusAfter, accepted };
    if (liveResult.code !== undefined) outcome.code = liveResult.code;
    record.outcomes.push(outcome);

    const facts: StepFacts = {
      target,
      step,
      action,
      before,
      after,
      rebuiltAfter: () => rebuilt.serialize(),
      sent,
      rebuiltSent: rebuiltRecorder.sent,
      live: liveResult,
      rebuilt: rebuiltResult,
      statusBefore,
      statusAfter,
      accepted,
      endEvents: live.endEvents - endEventsBefore,
      maxActions: max,
      record,
    };
    for (const check of STEP_CHECKS) if (report(check, check.run(facts), step)) break play;
  }
  report(ends, ends.run(record, options, maxSteps, max));
  return record;
}

// ---- privacy -------------------------------------------------------------------------------------------------

function leaves(value: unknown, path: string, out: Map<string, string>): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) leaves(v, `${path}[${i}]`, out);
  } else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) leaves(v, `${path}.${k}`, out);
  else if (typeof value === 'string' || typeof value === 'number') out.set(path, String(value));
}

/**
 * Private values of a game, found without knowing the challenge: the leaves of the created gameState that change when
 * only the seed secret changes (sets, wealth, reservation values, the payer, ...). Constants such as `total` stay out.
 */
export function derivePrivateValues(
  target: ConformanceTarget,
  challengeId: string,
  secret: string,
  otherSecrets: readonly string[],
): Map<string, string> {
  const of = (s: string) => {
    const recorder = recordingContext(challengeId, s);
    const out = new Map<string, string>();
    leaves(target.module.createGameState(recorder.ctx, target.options), '$', out);
    return out;
  };
  const mine = of(secret);
  const others = otherSecrets.map(of);
  const privateValues = new Map<string, string>();
  for (const [path, value] of mine) {
    if (others.some((o) => o.get(path) !== value)) privateValues.set(path, value);
  }
  return privateValues;
}

const tokensOf = (text: string): string[] => text.match(/[A-Za-z0-9]+/g) ?? [];

/**
 * No private data in broadcasts before the end, checked two ways:
 * - `non-interference`: the same actions played on different private data (other secrets) must produce the same
 *   broadcasts, step by step, until the game ends or an action's acceptance starts to depend on the data;
 * - `private-strings`: no private value (derived, plus the hook's `privateStrings`) appears in a broadcast before the
 *   end, unless it was public already (metadata, options, invites, what the players sent, the twin games' broadcasts).
 * Broadcasts of the ending action may reveal everything.
 */
export function checkBroadcastPrivacy(
  target: ConformanceTarget,
  seed: string,
  twins: readonly string[] = ['secret-b', 'secret-c', 'secret-d'],
): Violation[] {
  const main = playGame(target, seed, { secret: 'secret-a', afterEnd: 0 });
  const out: Violation[] = [];
  const twinRuns = twins.map((secret) => playGame(target, seed, { secret, script: main.actions }));
  // A twin is a full play too: its per-step findings (restore, replay, ...) count.
  for (const twin of twinRuns) out.push(...twin.violations);
  const checkTwins = target.hooks?.nonInterference !== false;
  const broadcastsOf = (o: StepOutcome | undefined) =>
    (o?.sent ?? []).filter((m) => m.to === undefined).map((m) => `${m.channel}|${m.content}`);

  // The twins stay comparable until an outcome differs (acceptance may depend on private data, e.g. a size check).
  const comparable = twinRuns.map(() => true);
  const derived = derivePrivateValues(target, main.challengeId, 'secret-a', twins);
  const secrets = new Set<string>(
    [...derived.values(), ...(target.hooks?.privateStrings?.(main.initialGameState) ?? [])].filter((s) => s.length > 0),
  );
  const publicTokens = new Set<string>([
    ...tokensOf(JSON.stringify(target.metadata)),
    ...tokensOf(JSON.stringify(target.options)),
    ...main.invites.flatMap(tokensOf),
    ...tokensOf(main.challengeId),
  ]);
  const pathOf = (value: string) => [...derived].find(([, v]) => v === value)?.[0] ?? 'privateStrings()';

  for (let step = 0; step < main.outcomes.length; step++) {
    const outcome = main.outcomes[step] as StepOutcome;
    const action = main.actions[step] as Action;
    if (action.kind === 'message') for (const t of tokensOf(action.content)) publicTokens.add(t);
    if (outcome.statusAfter === 'ended' || outcome.statusBefore === 'ended') break;
    const mine = broadcastsOf(outcome);
    const stepPublic = new Set(publicTokens);
    twinRuns.forEach((twin, t) => {
      const other = twin.outcomes[step];
      if (!comparable[t] || !other || other.ok !== outcome.ok || other.code !== outcome.code || other.statusAfter === 'ended') {
        comparable[t] = false;
        return;
      }
      const theirs = broadcastsOf(other);
      for (const tok of theirs.flatMap(tokensOf)) stepPublic.add(tok);
      const diff = firstDifference(theirs, mine);
      if (checkTwins && diff) {
        out.push({
          check: 'non-interference',
          step,
          message: `broadcasts depend on private data before the end (${twins[t]} vs secret-a, ${diff}): ${show(mine.join(' / '))}`,
        });
        comparable[t] = false;
      }
    });
    for (const text of mine) {
      const tokens = new Set(tokensOf(text));
      for (const value of secrets) {
        const alnum = /^[A-Za-z0-9]+$/.test(value);
        const present = alnum ? tokens.has(value) && !stepPublic.has(value) : text.includes(value);
        if (present)
          out.push({
            check: 'private-strings',
            step,
            message: `broadcast before the end contains private value ${show(value)} (${pathOf(value)}): ${show(text)}`,
          });
      }
    }
  }
  return out;
}

/** Random play plus the per-step checks of `playGame`, for one seed. */
export function checkRandomPlay(target: ConformanceTarget, seed: string, options: PlayOptions = {}): Violation[] {
  return playGame(target, seed, options).violations;
}

/** Every check for one seed; `methods` is seed-independent and included for convenience. */
export function checkChallenge(target: ConformanceTarget, seed: string): Violation[] {
  return [...checkMethods(target), ...checkRandomPlay(target, seed), ...checkBroadcastPrivacy(target, seed)];
}
