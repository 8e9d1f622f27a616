// model.yaml `cache: true`: a model agent's request identical to one answered before is answered from the engine's
// record instead of the model. The key is SHA-256 over the canonical JSON of: the server (host:port) and path, the
// whole request body (model, messages, temperature, max_tokens, seed, response_format…), the game (challenge and the
// opening seed the run seed derives for it), the seat and the turn (the call's order within the seat's game). A re-run
// of the same definition and seed therefore replays identical calls; a changed prompt, sampler setting or game asks
// the model. Wall-clock instants in a prompt (a turn deadline) are keyed as "<time>", as replay compares them. Answers enter the cache when the game that got them commits (status 200 only, secrets scrubbed).
import type { ModelCallRecord } from '../contract/model-call.js';
import type { ScheduledGame } from '../core/tournament/index.js';
import type { Store } from '../db/store.js';
import type { LaunchOptions } from '../runner/launch.js';
import { modelServerOf } from '../runner/model-server.js';
import { canonicalJson, sha256Hex } from '../runtime/canonical-json.js';
import { blankInstants } from '../runtime/instants.js';
import type { TournamentAgent } from './spec-file.js';

/** The cache hooks of one seat of one game, or undefined when its agent does not ask for the cache. */
export type ModelCacheSource = (agent: TournamentAgent, game: ScheduledGame, seat: number) => LaunchOptions['modelCache'];

export function modelCacheKey(parts: {
  server: string;
  path: string;
  request: unknown;
  challenge: string;
  gameSeed: string;
  seat: number;
  turn: number;
}): string {
  return `sha256:${sha256Hex(blankInstants(canonicalJson(parts as unknown as Record<string, unknown>)))}`;
}

export function modelCacheSource(store: Pick<Store, 'modelCache'>): ModelCacheSource {
  return (agent, game, seat) => {
    const server = modelServerOf(agent.manifest, agent.dir);
    // An https server's requests pass as opaque bytes: there is nothing to key or answer.
    if (!server?.cache || !server.plain) return undefined;
    return {
      keyOf: (turn, path, request) =>
        modelCacheKey({ server: server.endpoint, path, request, challenge: game.challenge, gameSeed: game.seed, seat, turn }),
      lookup: (key) => {
        const hit = store.modelCache.get(key);
        return hit ? { status: hit.status, body: hit.response } : undefined;
      },
    };
  };
}

/** Keeps the answered calls of a committed game that were asked of the model (not themselves from the cache). */
export function cacheAnswers(store: Pick<Store, 'modelCache'>, tournamentId: string, calls: readonly ModelCallRecord[], at: number): void {
  for (const call of calls)
    if (
      call.cache_key &&
      !call.cached &&
      !call.replayed &&
      call.status === 200 &&
      typeof call.response === 'object' &&
      call.response !== null
    )
      store.modelCache.put(call.cache_key, call.server, call.status, call.response, tournamentId, at);
}
