// Governance matches started from the admin API: the same runGovernanceMatch the CLI uses, with the decision client
// the request chose (client-choice.ts; default the scenario's expected decisions), stored in the engine's SQLite. One match at a time; the id is
// minted before the match starts so the caller can poll for it.

import fs from 'node:fs';
import path from 'node:path';
import { type LoadedAgent, loadAgentDir, MANIFEST_FILE, ManifestLoadError } from '../../agents/manifest-loader.js';
import { findManifests } from '../../agents/manifest-scan.js';
import { DomainError } from '../../contract/errors.js';
import type { GovernanceClientChoice, GovernanceScenario } from '../../contract/governance-admin.js';
import type { Store } from '../../db/store.js';
import { type SandboxPolicy, sandboxPolicy, sandboxPreflight } from '../../runner/sandbox-policy.js';
import { builtinAgentFolders, builtinScenariosDir } from '../../runtime/package-root.js';
import { chooseClient } from './client-choice.js';
import { eligibleAgents, launchPreflight, MatchConfigError, newMatchId, runGovernanceMatch, selectAgents } from './match.js';
import { toMatchRecord } from './match-record.js';
import { type LoadedScenario, loadScenarioRegistry } from './scenario-loader.js';

/** A match request that cannot start: `invalid` input, or `conflict` with the match already running. */
export class GovernanceRunError extends DomainError {
  override name = 'GovernanceRunError';
  constructor(kind: 'invalid' | 'conflict', message: string) {
    super(kind, message);
  }
}

export interface GovernanceRunnerDeps {
  store: Store;
  dataDir: string;
  /** How the trials' agents are sandboxed (default: all sandboxed, the data directory hidden). */
  sandbox?: SandboxPolicy;
  /** Defaults: the app's shipped scenarios and agent folders. */
  scenariosDir?: string;
  agentFolders?: () => string[];
  log?: (message: string) => void;
}

// Kept whole: short named methods sharing the runs in flight, read like a class.
export function createGovernanceRunner(deps: GovernanceRunnerDeps) {
  const scenariosDir = deps.scenariosDir ?? builtinScenariosDir();
  const agentFolders = deps.agentFolders ?? (() => builtinAgentFolders().map((f) => f.path));
  const out = path.join(deps.dataDir, 'governance');
  const sandbox = deps.sandbox ?? sandboxPolicy(deps.dataDir);
  let current: { matchId: string; controller: AbortController; done: Promise<void> } | null = null;
  /** Matches that ended without a stored report, so a poll can say why instead of 404ing forever. */
  const failures = new Map<string, string>();

  const scenarios = (): LoadedScenario[] => (fs.existsSync(scenariosDir) ? loadScenarioRegistry(scenariosDir) : []);

  /** Shipped agents whose manifests load and list the scenario (invalid ones are the Agents page's business). */
  function shippedAgents(scenarioId: string): LoadedAgent[] {
    const found: LoadedAgent[] = [];
    const seen = new Set<string>();
    for (const folder of agentFolders())
      for (const file of findManifests(folder)) {
        try {
          const agent = loadAgentDir(path.dirname(file));
          if (seen.has(agent.manifest.id)) continue;
          seen.add(agent.manifest.id);
          found.push(agent);
        } catch {
          // an invalid manifest is not offered
        }
      }
    return eligibleAgents(found, scenarioId);
  }

  function loadChosen(paths: readonly string[], scenarioId: string): LoadedAgent[] {
    const agents: LoadedAgent[] = [];
    for (const p of paths) {
      if (!path.isAbsolute(p)) throw new GovernanceRunError('invalid', `agents: ${p} is not an absolute path to an agent.yaml`);
      const dir = fs.existsSync(p) && fs.statSync(p).isDirectory() ? p : path.dirname(p);
      if (!fs.existsSync(path.join(dir, MANIFEST_FILE))) throw new GovernanceRunError('invalid', `agents: no ${MANIFEST_FILE} at ${p}`);
      let agent: LoadedAgent;
      try {
        agent = loadAgentDir(dir);
      } catch (error) {
        const detail = error instanceof ManifestLoadError ? error.problems.join('; ') : (error as Error).message;
        throw new GovernanceRunError('invalid', `agents: ${p}: ${detail}`);
      }
      if (agent.manifest.protocol !== 'governance')
        throw new GovernanceRunError(
          'invalid',
          `agents: ${agent.manifest.id} is a ${agent.manifest.protocol} agent, not a governance agent`,
        );
      if (!agent.manifest.scenarios.includes(scenarioId))
        throw new GovernanceRunError('invalid', `agents: ${agent.manifest.id} does not list scenario '${scenarioId}' in its manifest`);
      if (agents.some((a) => a.manifest.id === agent.manifest.id))
        throw new GovernanceRunError('invalid', `agents: agent id '${agent.manifest.id}' given twice`);
      agents.push(agent);
    }
    return agents;
  }

  return {
    scenarios(): GovernanceScenario[] {
      return scenarios().map((s) => ({
        id: s.spec.id,
        name: s.spec.name,
        description: s.spec.description,
        trials: s.trials.length,
        agents: shippedAgents(s.spec.id).map((a) => ({ id: a.manifest.id, manifest_path: a.file })),
      }));
    },

    get runningMatch(): string | null {
      return current?.matchId ?? null;
    },

    failure(matchId: string): string | undefined {
      return failures.get(matchId);
    },

    /** Validates, then runs in the background; returns the id the stored match will have. */
    start(request: { scenario: string; agents?: string[] | undefined; client?: GovernanceClientChoice | undefined }): string {
      if (current) throw new GovernanceRunError('conflict', `match ${current.matchId} is still running; wait for it to finish`);
      const all = scenarios();
      const scenario = all.find((s) => s.spec.id === request.scenario);
      if (!scenario)
        throw new GovernanceRunError(
          'invalid',
          `unknown scenario '${request.scenario}' (known: ${all.map((s) => s.spec.id).join(', ') || 'none'}; GET /governance/scenarios)`,
        );
      const agents = request.agents ? loadChosen(request.agents, scenario.spec.id) : shippedAgents(scenario.spec.id);
      try {
        if (selectAgents({ scenario, agents }).length === 0)
          throw new GovernanceRunError('invalid', `no agent to run: none lists scenario '${scenario.spec.id}'`);
      } catch (error) {
        if (error instanceof MatchConfigError) throw new GovernanceRunError('invalid', error.message);
        throw error;
      }
      const client = chooseClient(request.client);
      const chosen = selectAgents({ scenario, agents });
      const refusal = sandboxPreflight(sandbox, chosen, false);
      if (refusal !== null) throw new GovernanceRunError('conflict', refusal);
      const unstartable = launchPreflight({ sandbox }, chosen);
      if (unstartable !== null) throw new GovernanceRunError('invalid', unstartable);
      const matchId = newMatchId(scenario.spec.id, Date.now());
      const controller = new AbortController();
      const done = runGovernanceMatch({
        scenario,
        agents,
        matchId,
        clientFactory: client.factory,
        runsRoot: path.join(out, 'runs'),
        reportsRoot: path.join(out, 'matches'),
        indexDir: out,
        sandbox,
        signal: controller.signal,
      })
        .then((result) => {
          // Void, not a loss: a match whose decision service stopped answering is not stored; its failure says why.
          const lost = result.report.client_unreachable;
          if (lost) throw new Error(`match ${matchId} is void: ${lost.message}`);
          deps.store.governance.save(toMatchRecord(result, client.label));
        })
        .catch((error: unknown) => {
          failures.set(matchId, (error as Error).message);
          deps.log?.(`governance match ${matchId} failed: ${(error as Error).message}`);
        })
        .finally(() => {
          if (current?.matchId === matchId) current = null;
        });
      current = { matchId, controller, done };
      return matchId;
    },

    /** Engine shutdown: stops the agents of a running match (it is not stored) and waits for it. */
    async close(): Promise<void> {
      const run = current;
      if (!run) return;
      run.controller.abort();
      await run.done;
    },
  };
}

export type GovernanceRunner = ReturnType<typeof createGovernanceRunner>;
