// Owner controls delivered to agents as `agent_preferences` (spec §6.5). Local defaults keep the public clients
// quiet: report_level silent, self-learning off, and no null restart stamps (the watcher compares them as strings).
import type { StoredClawAgent } from '../../db/store.js';
import { canonicalJson, sha256Hex } from '../../runtime/canonical-json.js';

export interface OwnerGuidance {
  strategyHint: string | null;
  riskProfile: string | null;
  messageLanguage: string | null;
}

/** The epoch in the wire's fixed-width format, used as the "never acknowledged" restart stamp. */
const NEVER = '1970-01-01T00:00:00.000Z';

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export function guidanceOf(agent: StoredClawAgent): OwnerGuidance {
  const p = agent.preferences;
  return { strategyHint: text(p.strategy_hint), riskProfile: text(p.risk_profile), messageLanguage: text(p.message_language) };
}

/** Identifies a version of the one-shot guidance, so a change is delivered again. */
export function guidanceHash(g: OwnerGuidance): string {
  return sha256Hex(canonicalJson({ hint: g.strategyHint, risk: g.riskProfile }));
}

export function agentPreferences(agent: StoredClawAgent, currentGameType: string | null): Record<string, unknown> {
  const g = guidanceOf(agent);
  const prefs: Record<string, unknown> = {
    report_level: 'silent',
    autoplay_enabled: agent.preferredGameType !== null && agent.preferences.play_mode !== 'manual',
    strategy_self_learning_enabled: false,
  };
  if (agent.preferredGameType) prefs.preferred_game_type = agent.preferredGameType;
  if (currentGameType) prefs.current_game_type = currentGameType;
  if (g.messageLanguage) prefs.message_language = g.messageLanguage;
  const requested = text(agent.preferences.watcher_restart_requested_at);
  if (requested) {
    prefs.watcher_restart_requested_at = requested;
    prefs.watcher_restart_ack_at = text(agent.preferences.watcher_restart_ack_at) ?? NEVER;
  }
  return prefs;
}
