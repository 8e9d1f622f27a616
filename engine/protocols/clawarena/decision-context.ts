// Decision context v2 (spec §7.2, a Local Arena format): a stable part identified by a content hash, and a turn
// part that the `session` profile sends as a top-level delta against the state the client acknowledged.
import { canonicalEqual, canonicalJson, compareCodePoints, sha256Hex } from '../../runtime/canonical-json.js';

export interface StableContent {
  game_type: string;
  rules: Record<string, unknown> | null;
  strategy: Record<string, unknown> | null;
  user_preferences: { strategy_hint: string | null; risk_profile: string | null };
  message_language: string | null;
}

type State = Record<string, unknown>;

/** "dc2-" + the first 24 hex of SHA-256 over the canonical JSON of exactly the five stable fields. */
export function stableId(content: StableContent): string {
  const exact = {
    game_type: content.game_type,
    rules: content.rules,
    strategy: content.strategy,
    user_preferences: { strategy_hint: content.user_preferences.strategy_hint, risk_profile: content.user_preferences.risk_profile },
    message_language: content.message_language,
  };
  return `dc2-${sha256Hex(canonicalJson(exact)).slice(0, 24)}`;
}

export function stateChecksum(state: State): string {
  return `sha256:${sha256Hex(canonicalJson(state))}`;
}

function isOperatorLike(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === '_appended' || keys[0] === '_literal');
}

/** Top-level delta from `base` to `current`; nested values are replaced wholesale. */
export function computeDelta(base: State, current: State): { delta: State; removed: string[] } {
  const delta: State = {};
  for (const [key, value] of Object.entries(current)) {
    const before = base[key];
    if (key in base && canonicalEqual(before, value)) continue;
    if (
      key in base &&
      Array.isArray(before) &&
      Array.isArray(value) &&
      value.length > before.length &&
      before.every((item, i) => canonicalEqual(item, value[i]))
    ) {
      delta[key] = { _appended: value.slice(before.length) };
      continue;
    }
    delta[key] = isOperatorLike(value) ? { _literal: value } : value;
  }
  const removed = Object.keys(base)
    .filter((k) => !(k in current))
    .sort(compareCodePoints);
  return { delta, removed };
}

/** The client side of a delta; throws when an `_appended` target is not an array (the client then re-fetches). */
export function applyDelta(base: State, delta: State, removed: readonly string[]): State {
  const out: State = { ...base };
  for (const [key, value] of Object.entries(delta)) {
    if (isOperatorLike(value)) {
      const op = value as { _appended?: unknown; _literal?: unknown };
      if ('_appended' in op) {
        const target = out[key];
        if (!Array.isArray(target) || !Array.isArray(op._appended)) throw new TypeError(`cannot append to ${key}`);
        out[key] = [...target, ...op._appended];
      } else {
        out[key] = op._literal;
      }
      continue;
    }
    out[key] = value;
  }
  for (const key of removed) delete out[key];
  return out;
}

export type TurnPart =
  | { state_seq: number; mode: 'full'; base_seq: null; state: State; state_checksum: string }
  | { state_seq: number; mode: 'delta'; base_seq: number; state_delta: State; state_removed: string[]; state_checksum: string };

export function fullTurn(stateSeq: number, state: State): TurnPart {
  return { state_seq: stateSeq, mode: 'full', base_seq: null, state, state_checksum: stateChecksum(state) };
}

export function deltaTurn(stateSeq: number, baseSeq: number, base: State, state: State): TurnPart {
  const { delta, removed } = computeDelta(base, state);
  return {
    state_seq: stateSeq,
    mode: 'delta',
    base_seq: baseSeq,
    state_delta: delta,
    state_removed: removed,
    state_checksum: stateChecksum(state),
  };
}
