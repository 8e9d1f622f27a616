// The model builds a run plays with, asked of each model agent's server before the run (the probe is the engine's,
// engine/runtime/model-build.ts), and the check before a resume that the servers still serve those builds.
import type { PreflightProblem } from '../contract/preflight.js';
import { modelServerOf } from '../runner/model-server.js';
import { buildFingerprint, buildsDiffer, type ModelBuild } from '../runtime/model-build.js';
import type { ModelBuilds } from './run/run-manifest.js';
import type { TournamentAgent } from './spec-file.js';

export type ModelBuildProbe = (baseUrl: string, model: string) => Promise<ModelBuild>;

/** Each model agent's build by agent id, servers asked at once (one probe per server and model). */
export async function modelBuildsOf(probe: ModelBuildProbe, agents: readonly TournamentAgent[]): Promise<ModelBuilds> {
  const asked = new Map<string, Promise<ModelBuild>>();
  const byAgent: Array<[string, Promise<ModelBuild>]> = [];
  for (const agent of agents) {
    const server = modelServerOf(agent.manifest, agent.dir);
    if (server === null) continue;
    const key = `${server.baseUrl}\u0000${server.model}`;
    let build = asked.get(key);
    if (!build) {
      build = probe(server.baseUrl, server.model);
      asked.set(key, build);
    }
    byAgent.push([agent.id, build]);
  }
  return new Map(await Promise.all(byAgent.map(async ([id, build]) => [id, await build] as const)));
}

/** A model whose weights, known when the run started and known now, have changed: the rest of the run would play another model. */
export function buildChangeProblems(runId: string, before: ModelBuilds, now: ModelBuilds): PreflightProblem[] {
  const problems: PreflightProblem[] = [];
  for (const [agent, was] of before) {
    const is = now.get(agent);
    if (!buildsDiffer(was, is)) continue;
    problems.push({
      agent,
      check: 'model',
      message:
        `agent ${agent}: its model server now serves another build of ${was.served_as ?? 'its model'} (${buildFingerprint(was)} ` +
        `when tournament ${runId} started, ${buildFingerprint(is)} now); the rest of the run would play a different model: ` +
        'start a new tournament, or bring the old build back to resume',
    });
  }
  return problems;
}
