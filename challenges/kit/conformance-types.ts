// Types of the conformance kit, shared by the driver (conformance.ts) and the checks (conformance-checks.ts).
import type { Rng } from '../../engine/core/rng.js';
import type { ChallengeModule, OperatorSnapshot } from './operator-base.js';

/** The parts of challenge.json the checks read. */
export interface ConformanceMetadata {
  players: number;
  methods: readonly { name: string; description?: string }[];
  prompt?: string;
  description?: string;
}

/** What a random player may look at when the kit picks its next action. */
export interface PlayerView {
  invite: string;
  playerIndex: number;
  invites: readonly string[];
  /** Contents of operator DMs to this player so far. */
  dms: readonly string[];
  /** Contents of operator broadcasts so far. */
  broadcasts: readonly string[];
  options: Readonly<Record<string, unknown>>;
}

/**
 * Optional per-challenge tuning, exported by an operator module as `export const conformance: ConformanceHooks<MyState>`.
 * Without it the kit uses its generic fuzzer and generic privacy checks.
 */
export interface ConformanceHooks<G extends object = object> {
  /** Exact strings that must not appear in a broadcast before the game ends (added to the generically derived ones). */
  privateStrings?(gameState: G): string[];
  /** Extra candidate contents for a method, e.g. legal moves the generic fuzzer would rarely produce. */
  contents?(method: string, view: PlayerView, rng: Rng): string[];
  /** False when broadcasts may legitimately depend on seeded data (public randomness); private strings are still checked. */
  nonInterference?: boolean;
}

export interface ConformanceTarget {
  id: string;
  metadata: ConformanceMetadata;
  module: ChallengeModule<{ players: number }, object>;
  /** Parsed options (e.g. `module.optionsSchema.parse(defaultOptions)`). */
  options: { players: number };
  hooks?: ConformanceHooks;
}

export type CheckName =
  | 'methods'
  | 'json-safe'
  | 'restore'
  | 'replay'
  | 'atomic-rejection'
  | 'operator-crash'
  | 'max-actions'
  | 'ends'
  | 'end-state'
  | 'non-interference'
  | 'private-strings';

export interface Violation {
  check: CheckName;
  message: string;
  /** Index of the action in the play that exposed it. */
  step?: number;
}

export type Action =
  | { kind: 'join'; invite: string; userId: string }
  | { kind: 'message'; from: string; type: string | undefined; content: string };

export interface SentMessage {
  channel: string;
  from: string;
  content: string;
  to?: string;
}

export interface StepOutcome {
  /** False when the operator raised an OperatorError (the engine answers 400 and rolls the action back). */
  ok: boolean;
  code?: string;
  sent: SentMessage[];
  statusBefore: string;
  statusAfter: string;
  /** An action the game counted: a message accepted while the game was active. */
  accepted: boolean;
}

export interface PlayRecord {
  challengeId: string;
  invites: string[];
  actions: Action[];
  outcomes: StepOutcome[];
  /** gameState as created, before any join. */
  initialGameState: object;
  ended: boolean;
  accepted: number;
  violations: Violation[];
}

export interface PlayOptions {
  /** Seed secret standing in for the engine's HMAC secret; different secrets give different private data. */
  secret?: string;
  /** Replay these actions instead of generating them. */
  script?: readonly Action[];
  /** Attempts before the play gives up (and reports `ends`). */
  maxSteps?: number;
  /** Actions tried after the end, which must all be refused without changing anything. */
  afterEnd?: number;
}

/** How one action went on an operator: accepted, refused with an OperatorError code, or crashed. */
export interface ApplyResult {
  ok: boolean;
  code?: string;
  crash?: string;
}

/** One step as the driver saw it; the checks that keep count (max-actions, end-state) update `record`. */
export interface StepFacts {
  target: ConformanceTarget;
  step: number;
  action: Action;
  before: OperatorSnapshot<object>;
  after: OperatorSnapshot<object>;
  /** The rebuilt operator's state after the action (read only once the replay is known not to have crashed). */
  rebuiltAfter(): OperatorSnapshot<object>;
  sent: readonly SentMessage[];
  rebuiltSent: readonly SentMessage[];
  live: ApplyResult;
  rebuilt: ApplyResult;
  statusBefore: string;
  statusAfter: string;
  accepted: boolean;
  /** game_ended events the action emitted. */
  endEvents: number;
  maxActions: number;
  record: PlayRecord;
}

/** What a check found on one step: violations, and whether the play must stop there. */
export interface Finding {
  messages: string[];
  stop?: boolean;
}

/** One per-step check of the random play. */
export interface StepCheck {
  name: CheckName;
  run(facts: StepFacts): Finding | null;
}
