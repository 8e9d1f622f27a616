// Preflight of a tournament's agents before its first game: each one's program resolves in its sandbox view (the
// runner's own launch planning, launch-check.ts), and each model agent's server answers and serves its model (a check
// the engine injects, since the model agent's config is not this layer's). Problems come back one per fact, each
// naming the agent, the endpoint or program and the fix.
import type { PreflightProblem } from '../../contract/preflight.js';
import { launchProblem } from '../../runner/launch-check.js';
import type { SandboxPolicy } from '../../runner/sandbox-policy.js';
import type { TournamentAgent } from '../spec-file.js';
import { sandboxed } from './seat-launch.js';

/** The engine's check of one agent's model server (engine/model-agent/server-check.ts). */
export type ModelServerCheck = (agent: TournamentAgent, hostEnv: NodeJS.ProcessEnv) => Promise<PreflightProblem[]>;

export interface TournamentPreflightDeps {
  hostEnv?: NodeJS.ProcessEnv;
  sandbox?: SandboxPolicy;
  modelServers?: ModelServerCheck;
}

/** The arena URL a seat is given; any loopback address stands in for it when planning a launch. */
const ARENA_URL_STAND_IN = 'http://127.0.0.1:9';

export async function tournamentPreflight(deps: TournamentPreflightDeps, agents: readonly TournamentAgent[]): Promise<PreflightProblem[]> {
  const hostEnv = deps.hostEnv ?? process.env;
  const distinct = [...new Map(agents.map((a) => [a.id, a])).values()];
  const problems: PreflightProblem[] = [];
  for (const agent of distinct) {
    const options = sandboxed({ workspaceRoot: '', hostEnv, ...(deps.sandbox ? { sandbox: deps.sandbox } : {}) }, agent, {
      ARENA_URL: ARENA_URL_STAND_IN,
    });
    const problem = launchProblem(options);
    if (problem === null) continue;
    problems.push({
      agent: agent.id,
      check: problem.kind === 'program' ? 'program' : 'sandbox',
      ...(problem.kind === 'program' ? { program: problem.program } : {}),
      message: `agent ${agent.id} cannot start here: ${problem.message}`,
    });
  }
  // An agent that cannot start needs no server check; the others are probed at once.
  const startable = distinct.filter((a) => !problems.some((p) => p.agent === a.id));
  const servers = deps.modelServers;
  if (servers) for (const found of await Promise.all(startable.map((a) => servers(a, hostEnv)))) problems.push(...found);
  return problems;
}
