// The contract between a ClawArena game's rules and the engine's match runtime. Games are "std" code: pure
// functions over a JSON state, randomness from the match seed, no clock (the runtime owns deadlines).

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface Seat {
  /** Wire agent id (the `a` of the connection token). */
  agentId: number;
  name: string;
}

/** Who must act now. A `turn` has one actor; a `barrier` collects simultaneous submissions from several. */
export interface DecisionWindow {
  kind: 'turn' | 'barrier';
  /** Changes whenever a new decision window opens (the runtime derives action_window_id from it). */
  key: string;
  /** Seats that act in this window. */
  actors: number[];
  /** Actors that have not submitted yet (equals `actors` for a turn). */
  waiting: number[];
  /** Name of the deadline class (`turn`, `chat`, `vote`, `night`, …), looked up in the game's timeouts. */
  timeout: string;
}

export interface ServerFallback {
  params: JsonObject;
  behavior: string;
}

export interface LegalActionSpec {
  action: string;
  description: string;
  /** Type strings as the public clients read them: "int", "int (1-6)", "string (optional, max 140 chars)" (`kit/params.ts`). */
  params: Record<string, string>;
  /** The same parameters as a JSON Schema, for clients that validate. */
  params_schema: JsonObject;
  hint: JsonObject & { server_fallback: ServerFallback };
}

export interface GameEvent {
  type: string;
  /** 'public', or the seats that may see it. */
  visibility: 'public' | number[];
  data: JsonObject;
}

export interface ActionRejection {
  code: string;
  message: string;
  field?: string;
  invalid_value?: Json;
  allowed_values?: Json[];
}

export type ApplyResult<S> = { ok: true; state: S; events: GameEvent[] } | { ok: false; error: ActionRejection };

export interface Outcome {
  /** Rank per seat, 1 = best; equal ranks are ties. */
  placements: number[];
  winners: number[];
  reason: string;
}

export interface Briefs {
  rules: { title: string; rules: string[] };
  strategy: { objective: string; priorities: string[]; cautions: string[] } | null;
}

export interface GameRules<S> {
  gameType: string;
  title: string;
  players: { default: number; min: number; max: number };
  /** Deadline per timeout class, in milliseconds. */
  timeouts: Record<string, number>;
  /** Action names an agent may ever submit (anything else is `unknown_action`). */
  actions: readonly string[];
  setup(seats: readonly Seat[], seed: string, options: JsonObject): { state: S; events: GameEvent[] };
  /** The open decision window, or null once the game is over. */
  window(state: S): DecisionWindow | null;
  legalActions(state: S, seat: number): LegalActionSpec[];
  /** Applies a submission; `auto` marks a server default move (internal action names are accepted only then). */
  apply(state: S, seat: number, action: string, params: Record<string, unknown>, auto: boolean): ApplyResult<S>;
  /** The deterministic move for a seat that missed its deadline. */
  defaultMove(state: S, seat: number): { action: string; params: JsonObject };
  /** The seat's view: its private information plus everything public. */
  project(state: S, seat: number): JsonObject;
  /** What a spectator may see (no private information while the game runs). */
  spectate(state: S): JsonObject;
  briefs(state: S, seat: number): Briefs;
  outcome(state: S): Outcome | null;
  summary(state: S): JsonObject;
  /**
   * Games whose submissions are sealed (Diplomacy): the seat's submission in the current window, exactly as sent, so
   * that the runtime can accept an exact replay (200) and refuse a different batch (409 phase_submission_sealed).
   */
  sealedSubmission?(state: S, seat: number): { action: string; params: JsonObject } | null;
  /** The slim projection (`snapshot=slim`), when the game has one; `project` otherwise. */
  projectSlim?(state: S, seat: number): JsonObject;
  /**
   * Append-only logs of the projection that `snapshot=slim` sends as deltas (spec §6.6): projection key → entries
   * ever appended (the projection shows the latest of them). A key absent from the projection is ignored.
   */
  slimLogs?(state: S, seat: number): Record<string, number>;
}

export function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * Freezes a value all the way down. An already frozen object is taken as frozen through, so parts shared with an
 * earlier frozen value are not walked again.
 */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export function reject(
  code: string,
  message: string,
  extra: Omit<ActionRejection, 'code' | 'message'> = {},
): { ok: false; error: ActionRejection } {
  return { ok: false, error: { code, message, ...extra } };
}

export function toJson(value: unknown): Json {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value)) as Json;
  } catch {
    return String(value);
  }
}

/** Fisher–Yates with the given uniform source. */
export function shuffle<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export const TABLE_TALK_MAX = 140;
