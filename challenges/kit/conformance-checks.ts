// The conformance kit's checks, one object each. The driver (conformance.ts) plays the game and hands every check the
// facts of each step; a check reports violations and may stop the play. Std code: no Node, deterministic.

import type {
  Action,
  ApplyResult,
  CheckName,
  ConformanceTarget,
  Finding,
  PlayOptions,
  PlayRecord,
  SentMessage,
  StepCheck,
} from './conformance-types.js';
import type { OperatorSnapshot } from './operator-base.js';

/** First path where two JSON-like values differ, or null. Sets, Maps, class instances and non-finite numbers count as differences. */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (typeof a === 'number' && typeof b === 'number') {
    if (!Number.isFinite(a) || !Number.isFinite(b)) return `${path} (non-finite number)`;
    return Object.is(a, b) || a === b ? null : `${path} (${a} vs ${b})`;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    return a === b ? null : `${path} (${show(a)} vs ${show(b)})`;
  }
  if (!isPlain(a) || !isPlain(b)) return `${path} (not a plain object or array)`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${path} (array vs object)`;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path} (length ${a.length} vs ${b.length})`;
    for (let i = 0; i < a.length; i++) {
      const found = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const key of keys) {
    if (!(key in ra) || !(key in rb)) return `${path}.${key} (missing on one side)`;
    const found = firstDifference(ra[key], rb[key], `${path}.${key}`);
    if (found) return found;
  }
  return null;
}

function isPlain(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function describeAction(action: Action): string {
  return action.kind === 'join'
    ? `join(${action.invite})`
    : `message(from=${action.from}, type=${action.type === undefined ? '<none>' : JSON.stringify(action.type)}, content=${show(action.content)})`;
}

function result(r: ApplyResult): string {
  return r.ok ? 'accepted it' : r.crash ? `crashed (${r.crash})` : `refused it (${r.code})`;
}

function endProblems(
  target: ConformanceTarget,
  after: OperatorSnapshot<object>,
  sent: readonly SentMessage[],
  endEvents: number,
): string[] {
  const problems: string[] = [];
  const report = (m: string) => problems.push(m);
  if (endEvents !== 1) report(`ending action emitted ${endEvents} game_ended events (expected 1)`);
  if (!sent.some((m) => m.to === undefined && m.content.startsWith('Game ended.'))) report('ending action did not broadcast "Game ended."');
  const { scores, players } = after.state;
  if (scores.length !== target.metadata.players) report(`${scores.length} score slots for ${target.metadata.players} players`);
  if (players.length !== target.metadata.players) report(`game ended with ${players.length} of ${target.metadata.players} players`);
  for (const score of scores) {
    if (!Number.isFinite(score.security) || !Number.isFinite(score.utility)) report(`non-finite score ${JSON.stringify(score)}`);
  }
  return problems;
}

const found = (messages: Array<string | false | null | undefined>, stop = false): Finding | null => {
  const real = messages.filter((m): m is string => typeof m === 'string');
  return real.length > 0 ? { messages: real, stop } : null;
};

/** Before a step: the stored snapshot survives JSON. */
export const jsonSafe = {
  name: 'json-safe' as CheckName,
  run(before: OperatorSnapshot<object>, stored: OperatorSnapshot<object>): Finding | null {
    const diff = firstDifference(stored, before);
    return found([diff && `serialize() does not survive JSON at ${diff}`], true);
  },
};

/** Before a step: restore(serialize(x)) equals x. */
export const restores = {
  name: 'restore' as CheckName,
  run(before: OperatorSnapshot<object>, restored: OperatorSnapshot<object>): Finding | null {
    const diff = firstDifference(restored, before);
    return found([diff && `restore(serialize(x)) differs from x at ${diff}`], true);
  },
};

/** Only OperatorErrors are thrown. */
const operatorCrash: StepCheck = {
  name: 'operator-crash',
  run: ({ action, live, rebuilt }) =>
    found([(live.crash || rebuilt.crash) && `${describeAction(action)} threw a non-OperatorError: ${live.crash ?? rebuilt.crash}`], true),
};

/** The rebuilt operator answers the action as the live one does. */
const replayOutcome: StepCheck = {
  name: 'replay',
  run: ({ action, live, rebuilt }) =>
    found(
      [
        (live.ok !== rebuilt.ok || live.code !== rebuilt.code) &&
          `${describeAction(action)}: live operator ${result(live)} but the rebuilt one ${result(rebuilt)}`,
      ],
      true,
    ),
};

/** ...and ends in the same state having sent the same messages (no state kept outside serialize()). */
const replayState: StepCheck = {
  name: 'replay',
  run: (facts) => {
    const sentDiff = firstDifference(facts.rebuiltSent, facts.sent);
    const stateDiff = firstDifference(facts.rebuiltAfter(), facts.after);
    if (!sentDiff && !stateDiff) return null;
    const what = sentDiff ? `messages ${sentDiff}` : `state ${stateDiff}`;
    return found(
      [`${describeAction(facts.action)}: rebuilt operator differs from the live one (${what}); state kept outside serialize()?`],
      true,
    );
  },
};

/** A refused action changes nothing and sends nothing. */
const atomicRejection: StepCheck = {
  name: 'atomic-rejection',
  run: ({ action, live, before, after, sent }) => {
    if (live.ok) return null;
    const changed = firstDifference(after, before);
    return found([
      changed && `${describeAction(action)} was refused (${live.code}) but changed the state at ${changed}`,
      sent.length > 0 && `${describeAction(action)} was refused (${live.code}) but sent ${sent.length} message(s)`,
    ]);
  },
};

/** The game ends within maxActions accepted actions; it keeps the count of accepted actions. */
const maxActions: StepCheck = {
  name: 'max-actions',
  run: ({ accepted, record, statusAfter, maxActions: max }) => {
    if (!accepted) return null;
    record.accepted++;
    return found(
      [
        record.accepted > max &&
          statusAfter !== 'ended' &&
          `${record.accepted} accepted actions and the game is still ${statusAfter} (maxActions = ${max})`,
      ],
      true,
    );
  },
};

/** An ended game refuses everything; the ending action ends it properly. It marks the play as ended. */
const endState: StepCheck = {
  name: 'end-state',
  run: ({ target, action, before, after, sent, statusBefore, statusAfter, endEvents, record }) => {
    if (statusBefore === 'ended') {
      const changed = firstDifference(after, before);
      return found([changed && `${describeAction(action)} after the end changed the state at ${changed}`]);
    }
    if (statusAfter === 'ended') {
      record.ended = true;
      return found(endProblems(target, after, sent, endEvents));
    }
    return found([statusBefore === 'active' && statusAfter !== 'active' && `status went from active to ${statusAfter}`]);
  },
};

/** Every step's checks, in the order the driver runs them; the first that stops the play ends it. */
export const STEP_CHECKS: readonly StepCheck[] = [operatorCrash, replayOutcome, replayState, atomicRejection, maxActions, endState];

/** After the play: a random game ends (unless a harder violation already stopped it). */
export const ends = {
  name: 'ends' as CheckName,
  run(record: PlayRecord, options: PlayOptions, maxSteps: number, max: number): Finding | null {
    if (record.ended || options.script || record.violations.some((v) => v.check !== 'atomic-rejection')) return null;
    return found([`game did not end after ${maxSteps} random actions (${record.accepted} accepted, maxActions ${max})`]);
  },
};

/** Before play: maxActions(options) is a positive integer. */
export const maxActionsValid = {
  name: 'max-actions' as CheckName,
  run: (max: number): Finding | null =>
    found([(!Number.isSafeInteger(max) || max < 1) && `maxActions(options) must be a positive integer, got ${max}`]),
};
