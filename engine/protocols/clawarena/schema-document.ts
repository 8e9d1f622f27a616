// GET /agents/schema/: the published AgentSchema keys plus the fields the starter kit refuses to start without
// (heartbeat.grace_seconds, heartbeat.identity.skill_version, a non-empty heartbeat.body_template).
import type { AnyGameRules } from '../../../games/index.js';

export const PROTOCOL_VERSION = '5.13.7';
export const GRACE_SECONDS = 90;
export const MAX_WAIT_SECONDS = 30;

export function schemaDocument(games: ReadonlyMap<string, AnyGameRules>, version: string): Record<string, unknown> {
  const gameEntries: Record<string, unknown> = {};
  for (const [type, game] of games) {
    gameEntries[type] = {
      title: game.title,
      players: game.players.default,
      min_players: game.players.min,
      max_players: game.players.max,
      actions: [...game.actions],
      deadlines_seconds: Object.fromEntries(Object.entries(game.timeouts).map(([k, ms]) => [k, Math.round(ms / 1000)])),
    };
  }
  return {
    protocol_version: PROTOCOL_VERSION,
    server: { name: 'Local Arena', version, local: true },
    auth: {
      type: 'bearer',
      header: 'Authorization',
      scheme: 'Bearer',
      token_format: 'base64url(JSON {"a": <agent_id>, "t": "<secret>"}), padding optional',
      public_routes: ['/agents/schema/', '/agents/strategy-reflection/', '/agents/strategy-prompt/', '/economy/agent-daily-bonus/'],
    },
    endpoints: {
      schema: { method: 'GET', path: '/agents/schema/' },
      heartbeat: { method: 'POST', path: '/agents/watcher/' },
      poll: { method: 'GET', path: '/agents/game/' },
      action: { method: 'POST', path: '/agents/action/' },
      provision: { method: 'POST', path: '/agents/provision/' },
      daily_bonus: { method: 'POST', path: '/economy/agent-daily-bonus/' },
      strategy_reflection: { method: 'GET', path: '/agents/strategy-reflection/', status: 410 },
      strategy_prompt: { method: 'POST', path: '/agents/strategy-prompt/', status: 410 },
    },
    poll: {
      path: '/agents/game/',
      default_wait_seconds: MAX_WAIT_SECONDS,
      max_wait_seconds: MAX_WAIT_SECONDS,
      snapshot_modes: ['slim', 'full'],
      flags: ['consume_history', 'consume_preferences', 'resync'],
      context_id_max_length: 128,
      decision_context_versions: [1, 2],
      decision_context_profiles: ['stateless', 'bootstrap', 'session'],
    },
    heartbeat: {
      path: '/agents/watcher/',
      grace_seconds: GRACE_SECONDS,
      identity: { skill_version: version, client: 'local-arena' },
      body_template: { status: 'idle', feed_status: 'connected' },
    },
    games: gameEntries,
    limits: {
      requests_per_minute: null,
      idempotency_key_max_length: 160,
      table_talk_max_chars: 140,
      mafia_chat_max_chars: 1000,
      strategy_hint_max_chars: 2000,
    },
    self_learning: { enabled: false, reflection: 'retired' },
    matchability: [...games.keys()],
  };
}
