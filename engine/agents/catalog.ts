// The Agents page: agent folders (shipped ones plus the user's, stored in SQLite), every agent.yaml in them with its
// validation problems, and the runs an agent took part in.
import fs from 'node:fs';
import path from 'node:path';
import type { AgentCatalogResponse, AgentFolder, AgentRun } from '../contract/agent-catalog.js';
import { DomainError } from '../contract/errors.js';
import type { NewModelAgentRequest, NewModelAgentResponse } from '../contract/model-agent-create.js';
import { reportFromTally } from '../core/ratings/index.js';
import { agentId } from '../core/tournament/index.js';
import type { Store } from '../db/store.js';
import { type BuiltinFolder, builtinAgentFolders } from '../runtime/package-root.js';
import { runTally } from '../tournaments/results/game-commit.js';
import { loadManifest, MANIFEST_FILE } from './manifest-loader.js';
import { scanFolders } from './manifest-scan.js';
import { type NewModelAgentDeps, writeModelAgent } from './new-model-agent.js';

export class AgentCatalogError extends DomainError {
  override name = 'AgentCatalogError';
  constructor(kind: 'invalid' | 'not_found' | 'conflict', message: string) {
    super(kind, message);
  }
}

/** The same file however it was named (symlinks, `..`); a path that does not exist is only resolved. */
function canonical(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

// Kept whole: short named methods sharing the catalog cache, read like a class.
export function createAgentCatalog(deps: {
  store: Store;
  builtin?: () => BuiltinFolder[];
  now?: () => number;
  /** Why a valid manifest's agent cannot start here (the runner's launch check, injected by the engine); else null. */
  cannotStart?: (manifestPath: string, dir: string) => string | null;
  /** What "New model agent" checks a request against (the playables, the model server preflight). */
  newModelAgent?: NewModelAgentDeps;
}) {
  const { store } = deps;
  const builtin = deps.builtin ?? (() => builtinAgentFolders());
  const now = deps.now ?? Date.now;

  function folders(): AgentFolder[] {
    return [
      ...builtin().map((f) => ({ id: f.id, path: f.path, builtin: true, exists: isDirectory(f.path), added_at: null, trusted: false })),
      ...store.agentFolders.list().map((f) => ({
        id: String(f.id),
        path: f.path,
        builtin: false,
        exists: isDirectory(f.path),
        added_at: f.addedAt,
        trusted: f.trusted,
      })),
    ];
  }

  async function catalog(): Promise<AgentCatalogResponse> {
    const list = folders();
    // A manifest reachable from two folders (a user folder containing a shipped one) is listed once, under the first.
    const seen = new Set<string>();
    const skip = (file: string) => {
      const key = canonical(file);
      if (seen.has(key)) return true;
      seen.add(key);
      return false;
    };
    const { agents, incomplete } = await scanFolders(
      list.filter((f) => f.exists),
      skip,
    );
    const check = deps.cannotStart;
    const marked = check ? agents.map((a) => (a.ok ? { ...a, cannot_start: check(a.manifest_path, a.dir) } : a)) : agents;
    return { folders: list, agents: marked, ...(incomplete === null ? {} : { incomplete }) };
  }

  function tournamentRuns(target: string): AgentRun[] {
    const runs: AgentRun[] = [];
    const { items } = store.tournaments.list(100_000, 0);
    for (const t of items) {
      const entries = Array.isArray(t.spec.agents) ? (t.spec.agents as Array<{ manifest?: unknown; id?: unknown }>) : [];
      entries.forEach((entry, index) => {
        if (typeof entry?.manifest !== 'string') return;
        const resolved = path.resolve(t.specDir, entry.manifest);
        const file = isDirectory(resolved) ? path.join(resolved, MANIFEST_FILE) : resolved;
        if (canonical(file) !== target) return;
        // Games and points as the standings count them, from the run tally kept with the tournament (no pass over
        // its games, so a 100,000-game run costs this page what a 10-game one does).
        const board = reportFromTally(runTally(store, t.id).ratings, { agentCount: entries.length }).combined;
        const mine = board.agents.find((a) => a.agent === index);
        const games = mine?.games ?? 0;
        const points = mine?.points ?? 0;
        runs.push({
          kind: 'tournament',
          tournament_id: t.id,
          tournament_name: t.name,
          // The id the run knows the agent by (its run manifest); older runs fall back to the definition's spelling.
          agent_id:
            (t.manifest as { agents?: Array<{ id?: unknown }> }).agents?.[index]?.id?.toString() ??
            agentId({ manifest: entry.manifest as string, ...(typeof entry.id === 'string' ? { id: entry.id } : {}) }),
          games,
          points,
          status: t.status,
          at: t.createdAt,
        });
      });
    }
    return runs;
  }

  /**
   * Stored governance matches name their agents by manifest id only, so a match counts when the manifest's id is
   * among the match's agents and the manifest lists the match's scenario.
   */
  function governanceRuns(target: string): AgentRun[] {
    let manifest: ReturnType<typeof loadManifest>;
    try {
      manifest = loadManifest(target);
    } catch {
      return [];
    }
    if (manifest.protocol !== 'governance') return [];
    const runs: AgentRun[] = [];
    for (let offset = 0; ; offset += 500) {
      const page = store.governance.list({ limit: 500, offset });
      for (const m of page.matches) {
        if (!m.agents.includes(manifest.id) || !manifest.scenarios.includes(m.scenarioId)) continue;
        const own = store.governance.get(m.matchId)?.runs.filter((r) => r.agentId === manifest.id) ?? [];
        runs.push({
          kind: 'governance',
          match_id: m.matchId,
          scenario_id: m.scenarioId,
          agent_id: manifest.id,
          trials: own.length,
          passed: own.filter((r) => r.passed).length,
          outcome: m.outcome,
          at: m.startedAt,
        });
      }
      if (offset + 500 >= page.total) break;
    }
    return runs;
  }

  return {
    catalog,

    addFolder(raw: string): Promise<AgentCatalogResponse> {
      if (!path.isAbsolute(raw)) throw new AgentCatalogError('invalid', `path must be absolute, got '${raw}'`);
      const resolved = path.resolve(raw);
      if (!fs.existsSync(resolved)) throw new AgentCatalogError('invalid', `no such folder: ${resolved}`);
      if (!isDirectory(resolved))
        throw new AgentCatalogError('invalid', `not a folder: ${resolved} (add the folder that holds agent.yaml)`);
      const key = canonical(resolved);
      const clash = folders().find((f) => canonical(f.path) === key);
      if (clash)
        throw new AgentCatalogError('conflict', `${resolved} is already in the list${clash.builtin ? ' (shipped with the app)' : ''}`);
      if (!store.agentFolders.add(resolved, now())) throw new AgentCatalogError('conflict', `${resolved} is already in the list`);
      return catalog();
    },

    removeFolder(id: string): Promise<AgentCatalogResponse> {
      if (builtin().some((f) => f.id === id))
        throw new AgentCatalogError('invalid', `folder ${id} ships with the app and cannot be removed`);
      if (!/^[1-9]\d*$/.test(id) || !store.agentFolders.remove(Number(id)))
        throw new AgentCatalogError('not_found', `no agent folder ${id}`);
      return catalog();
    },

    /** Marks a user folder trusted (its agents run without the OS sandbox) or not; shipped folders stay sandboxed. */
    setTrusted(id: string, trusted: boolean): Promise<AgentCatalogResponse> {
      if (builtin().some((f) => f.id === id))
        throw new AgentCatalogError('invalid', `folder ${id} ships with the app and cannot be marked trusted`);
      if (!/^[1-9]\d*$/.test(id) || !store.agentFolders.setTrusted(Number(id), trusted))
        throw new AgentCatalogError('not_found', `no agent folder ${id}`);
      return catalog();
    },

    /** "New model agent": writes agent.yaml + model.yaml into a new folder inside a user folder (new-model-agent.ts). */
    async createModelAgent(req: NewModelAgentRequest): Promise<NewModelAgentResponse> {
      const checks = deps.newModelAgent;
      if (!checks) throw new DomainError('unavailable', 'creating model agents is not available in this engine');
      const folder = folders().find((f) => f.id === req.folder_id);
      const issue = (message: string) => new DomainError('invalid', `folder_id: ${message}`, { issues: [{ path: 'folder_id', message }] });
      if (!folder) throw issue(`no agent folder ${req.folder_id}; add a folder on the Agents page first`);
      if (folder.builtin) throw issue(`${folder.path} ships with the app; pick one of your own folders`);
      if (!folder.exists) throw issue(`${folder.path} is missing; add an existing folder`);
      // The scan stops at a folder's own agent.yaml, so an agent written below it would never be listed.
      if (fs.existsSync(path.join(folder.path, MANIFEST_FILE)))
        throw issue(`${folder.path} is an agent itself (it holds ${MANIFEST_FILE}); pick or add the folder that holds your agents`);
      const files = await writeModelAgent(folder.path, req, checks);
      const made = canonical(files[0] as string);
      const listed = await catalog();
      const agent = listed.agents.find((a) => canonical(a.manifest_path) === made);
      if (!agent)
        throw new DomainError(
          'internal',
          `${files[0]} was written, but the folder scan did not reach it (${listed.incomplete ?? 'not found'})`,
        );
      return { agent, files };
    },

    runs(manifest: string, limit: number): AgentRun[] {
      if (!path.isAbsolute(manifest))
        throw new AgentCatalogError('invalid', `manifest must be an absolute agent.yaml path, got '${manifest}'`);
      const resolved = isDirectory(manifest) ? path.join(manifest, MANIFEST_FILE) : manifest;
      const target = canonical(resolved);
      return [...tournamentRuns(target), ...governanceRuns(target)].sort((a, b) => b.at - a.at).slice(0, limit);
    },
  };
}

export type AgentCatalog = ReturnType<typeof createAgentCatalog>;
