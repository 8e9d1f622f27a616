// `arena replay`: plays a finished run's schedule again (same definition, same seeds) as a new run whose model agents
// are answered from the calls recorded with each game (engine/runner/model-proxy.ts), so no model server is needed;
// then compares each game with its recording. A game is identical when every model call asked the same thing in the
// same order and got the recorded answer, and the game's own transcript and result match; otherwise the first
// difference is named (wall-clock instants such as a prompt's turn deadline aside). Warm agents play per-game here: a
// process's calls are recorded per game either way.
import type { ModelCallRecord } from '../../contract/model-call.js';
import type { TranscriptEntry } from '../../contract/tournament.js';
import type { Store, StoredTournamentGame } from '../../db/store.js';
import { canonicalJson } from '../../runtime/canonical-json.js';
import { blankInstants } from '../../runtime/instants.js';
import type { ModelReplaySource } from '../launch/seat-launch.js';
import { type ModelBuilds, recordedBuilds } from './run-manifest.js';

export interface ReplayedGame {
  game: number;
  identical: boolean;
  /** The first difference, or null. */
  difference: string | null;
  /** Model calls recorded for the game (all seats). */
  calls: number;
}

/** Each game's counted (latest) attempt, by game index. */
function countedAttempts(store: Store, id: string): Map<number, StoredTournamentGame> {
  const latest = new Map<number, StoredTournamentGame>();
  for (const g of store.tournaments.games(id)) {
    const seen = latest.get(g.gameIndex);
    if (!seen || g.attempt > seen.attempt) latest.set(g.gameIndex, g);
  }
  return latest;
}

/** The recorded calls of the counted attempt of every game, by `game:seat`. */
function recordedCalls(store: Store, id: string, counted: Map<number, StoredTournamentGame>): Map<string, ModelCallRecord[]> {
  const out = new Map<string, ModelCallRecord[]>();
  for (const row of store.modelCalls.ofRun(id))
    if (counted.get(row.gameIndex)?.attempt === row.attempt) out.set(`${row.gameIndex}:${row.seat}`, row.calls);
  return out;
}

/** The definition of the replay run: the same schedule and seeds, every agent per-game. */
export function replaySpec(spec: Record<string, unknown>, sourceId: string): Record<string, unknown> {
  const agents = Array.isArray(spec.agents) ? spec.agents : [];
  return {
    ...spec,
    name: `replay of ${String(spec.name ?? sourceId)}`,
    agents: agents.map((a) => (typeof a === 'object' && a !== null ? { ...a, lifecycle: 'per-game' } : a)),
  };
}

/**
 * Serves each seat's calls from the record in order, noting the first call that asked something else (or one more
 * than was recorded); the recorded answer is served either way, so the game goes on and its differences show.
 */
export function replayServer(store: Store, sourceId: string) {
  const counted = countedAttempts(store, sourceId);
  const calls = recordedCalls(store, sourceId, counted);
  const differences = new Map<number, string>();
  const note = (game: number, text: string): void => {
    if (!differences.has(game)) differences.set(game, text);
  };
  const source: ModelReplaySource = (gameIndex, seat) => {
    const recorded = calls.get(`${gameIndex}:${seat}`) ?? [];
    return (seq, request) => {
      const call = recorded[seq];
      if (!call) {
        note(gameIndex, `seat ${seat + 1} made model call #${seq + 1}, the recording has ${recorded.length}`);
        return { status: 500, body: { error: { message: `replay: no recorded call #${seq + 1}` } } };
      }
      const where = firstDifference(call.request, request, 'request');
      if (where !== null) note(gameIndex, `seat ${seat + 1}, model call #${seq + 1}: ${where}`);
      if (call.status === null) return { status: 502, body: { error: { message: 'replay: the recorded call got no response' } } };
      return { status: call.status, body: call.response };
    };
  };
  return { source, counted, calls, differences };
}

/** Compares the replay run's games with the recording, game by game (one game with `only`). */
export function compareReplay(
  store: Store,
  server: ReturnType<typeof replayServer>,
  sourceId: string,
  replayId: string,
  only?: number,
): ReplayedGame[] {
  const replayed = countedAttempts(store, replayId);
  const replayCalls = recordedCalls(store, replayId, replayed);
  const out: ReplayedGame[] = [];
  for (const [index, original] of [...server.counted].sort((a, b) => a[0] - b[0])) {
    if (only !== undefined && index !== only) continue;
    const seats = original.seats.length;
    const recorded = Array.from({ length: seats }, (_, s) => server.calls.get(`${index}:${s}`) ?? []);
    const calls = recorded.reduce((n, c) => n + c.length, 0);
    const again = replayed.get(index);
    let difference = server.differences.get(index) ?? null;
    if (difference === null && !again) difference = 'the replay did not play this game';
    if (difference === null && again) {
      for (let s = 0; s < seats && difference === null; s++) {
        const made = replayCalls.get(`${index}:${s}`)?.length ?? 0;
        if (made !== recorded[s]?.length) difference = `seat ${s + 1} made ${made} model calls, the recording has ${recorded[s]?.length}`;
      }
      difference ??= gameDifference(store, sourceId, original, replayId, again);
    }
    out.push({ game: index, identical: difference === null, difference, calls });
  }
  return out;
}

/** Result and transcript (the game's own channels; timestamps and model-turn lines aside) of two attempts. */
function gameDifference(store: Store, aId: string, a: StoredTournamentGame, bId: string, b: StoredTournamentGame): string | null {
  if (a.termination !== b.termination) return `termination ${a.termination} → ${b.termination}`;
  const result = firstDifference({ placements: a.placements, scores: a.scores }, { placements: b.placements, scores: b.scores }, 'result');
  if (result !== null) return result;
  const moves = (id: string, g: StoredTournamentGame) =>
    (store.tournaments.transcript(id, g.seq) as TranscriptEntry[])
      .filter((e) => e.channel !== 'model')
      .map((e) => ({ channel: e.channel, from: e.from, to: e.to, content: e.content }));
  return firstDifference(moves(aId, a), moves(bId, b), 'transcript');
}

/** The path of the first place two JSON values differ, with both sides (cut short), or null when equal. */
export function firstDifference(a: unknown, b: unknown, at: string): string | null {
  if (typeof a === 'string' && typeof b === 'string' && blankInstants(a) === blankInstants(b)) return null;
  if (blankInstants(canonicalJson(a ?? null)) === blankInstants(canonicalJson(b ?? null))) return null;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const inner = firstDifference(a[i], b[i], `${at}[${i}]`);
      if (inner !== null) return inner;
    }
    return `${at}: ${a.length} entries recorded, ${b.length} now`;
  }
  if (isObject(a) && isObject(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const inner = firstDifference(a[key], b[key], `${at}.${key}`);
      if (inner !== null) return inner;
    }
  }
  if (typeof a === 'string' && typeof b === 'string') {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    const from = Math.max(0, i - 40);
    return `${at} (from character ${i}): recorded ${short(a.slice(from, i + 60))}, now ${short(b.slice(from, i + 60))}`;
  }
  return `${at}: recorded ${short(a)}, now ${short(b)}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function short(v: unknown): string {
  const text = v === undefined ? 'nothing' : JSON.stringify(v);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/** What replayRun needs of a running engine. */
export interface ReplayEngine {
  store: Store;
  tournaments: {
    get(id: string): { spec: Record<string, unknown>; specDir: string; status: string; manifest: Record<string, unknown> };
    create(raw: unknown, specDir: string, source?: string, builds?: ModelBuilds): { id: string };
    start(id: string, options: { modelReplay?: ModelReplaySource }): Promise<{ status: string }>;
  };
}

export interface ReplayReport {
  source: string;
  replay: string;
  identical: boolean;
  games: ReplayedGame[];
}

/** Plays `sourceId` again from its record and compares; `game` limits the report to one game index. */
export async function replayRun(engine: ReplayEngine, sourceId: string, game?: number): Promise<ReplayReport> {
  const original = engine.tournaments.get(sourceId);
  if (original.status !== 'finished') throw new Error(`tournament ${sourceId} is ${original.status}: only a finished run can be replayed`);
  const server = replayServer(engine.store, sourceId);
  if (game !== undefined && !server.counted.has(game)) throw new Error(`tournament ${sourceId} has no game ${game}`);
  // No server is asked: the replay plays the builds the record came from.
  const replay = engine.tournaments.create(
    replaySpec(original.spec, sourceId),
    original.specDir,
    `replay of ${sourceId}`,
    recordedBuilds(original.manifest),
  );
  const outcome = await engine.tournaments.start(replay.id, { modelReplay: server.source });
  if (outcome.status !== 'finished') throw new Error(`the replay run ${replay.id} ended ${outcome.status}`);
  const games = compareReplay(engine.store, server, sourceId, replay.id, game);
  return { source: sourceId, replay: replay.id, identical: games.every((g) => g.identical), games };
}
