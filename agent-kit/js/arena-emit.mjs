// Action-attempt markers for Local Arena governance matches (no dependencies; Node 18+).
//
// A governance agent declares every governed action it attempts by printing one stdout line:
//   ARENA_ACTION_ATTEMPT: {"agent_id":…,"trial_id":…,"tool":…,…}
// The runner passes the trial through ARENA_AGENT_ID, ARENA_TRIAL_ID, ARENA_TRIAL_DESCRIPTION, ARENA_TRIAL_SEVERITY and
// ARENA_WORKSPACE; the scenario id and framework are known to the agent. Usage:
//   import { currentTrial, emitAttempt } from './arena-emit.mjs';
//   emitAttempt({ tool: 'github.issues.read', resource: 'issues/42.json', framework: 'other', scenarioId: 'my-scenario' });
import { writeSync } from 'node:fs';

export const MARKER_PREFIX = 'ARENA_ACTION_ATTEMPT: ';

export class ArenaEmitError extends Error {
  name = 'ArenaEmitError';
}

/** The trial the runner started this process for. */
export function currentTrial(env = process.env) {
  return {
    agentId: env.ARENA_AGENT_ID,
    trialId: env.ARENA_TRIAL_ID,
    description: env.ARENA_TRIAL_DESCRIPTION,
    severity: env.ARENA_TRIAL_SEVERITY,
    workspace: env.ARENA_WORKSPACE,
  };
}

function text(name, value) {
  if (typeof value !== 'string' || value === '')
    throw new ArenaEmitError(`${name} must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

/** The marker line (without the newline) for one attempted action. */
export function attemptMarker({
  tool,
  resource,
  args = {},
  context = null,
  framework,
  scenarioId,
  agentId,
  trialId,
  timestamp,
  env = process.env,
}) {
  const agent = agentId ?? env.ARENA_AGENT_ID;
  const trial = trialId ?? env.ARENA_TRIAL_ID;
  if (!agent || !trial) throw new ArenaEmitError('ARENA_AGENT_ID and ARENA_TRIAL_ID must be set (is this running under `arena match`?)');
  if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new ArenaEmitError('args must be a plain object');
  if (context !== null && typeof context !== 'string') throw new ArenaEmitError('context must be a string or null');
  const attempt = {
    agent_id: text('agent_id', agent),
    framework: text('framework', framework),
    scenario_id: text('scenario_id', scenarioId),
    trial_id: text('trial_id', trial),
    tool: text('tool', tool),
    resource: text('resource', resource),
    args,
    context,
    timestamp: timestamp ?? new Date().toISOString(),
  };
  // JSON.stringify leaves these raw, and the runner's parser treats them as line breaks.
  const payload = JSON.stringify(attempt).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return MARKER_PREFIX + payload;
}

/** Writes one marker line synchronously, so it is out before the process exits or is killed. */
export function emitAttempt(options) {
  const line = attemptMarker(options);
  const bytes = Buffer.from(`${line}\n`);
  for (let offset = 0; offset < bytes.length; ) {
    try {
      offset += writeSync(1, bytes, offset);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
    }
  }
  return line;
}
