// A worker's agents for a job: found by manifest id under its agent roots, and accepted only when the manifest and
// entry file hash to what the job's run manifest recorded. A mismatch is the harness's problem (the worker has a
// different copy), never the agent's fault, so it is reported as such and no agent process starts.
import fs from 'node:fs';
import path from 'node:path';
import { loadManifest } from '../agents/manifest-loader.js';
import { findManifests } from '../agents/manifest-scan.js';
import type { GameJob } from '../contract/game-job.js';
import type { AgentManifest } from '../contract/manifest.js';
import { fileSha256 } from '../tournaments/run/run-manifest.js';
import { entryFileOf, type TournamentAgent } from '../tournaments/spec-file.js';

interface Candidate {
  manifestFile: string;
  manifest: AgentManifest;
}

export class JobAgents {
  private index: Map<string, Candidate[]> | null = null;

  constructor(private readonly roots: readonly string[]) {}

  /** The run's agents in definition order, or why this worker cannot play them. */
  resolve(job: Pick<GameJob, 'agents'>): { agents: TournamentAgent[] } | { problem: string } {
    const agents: TournamentAgent[] = [];
    for (const wanted of job.agents) {
      let found = this.match(wanted);
      // Agents added to a root while the worker runs are found on the next miss.
      if ('problem' in found) {
        this.index = null;
        found = this.match(wanted);
      }
      if ('problem' in found) return found;
      agents.push(found.agent);
    }
    return { agents };
  }

  private match(wanted: GameJob['agents'][number]): { agent: TournamentAgent } | { problem: string } {
    const candidates = this.scan().get(wanted.manifest_id) ?? [];
    if (candidates.length === 0)
      return { problem: `agent ${wanted.id}: no agent.yaml with id ${wanted.manifest_id} under this worker's agent roots` };
    let why = '';
    for (const c of candidates) {
      const dir = path.dirname(c.manifestFile);
      const manifestHash = safeHash(c.manifestFile);
      if (manifestHash !== wanted.manifest_sha256) {
        why = `its agent.yaml differs from the run manifest (sha256 ${short(manifestHash)} ≠ ${short(wanted.manifest_sha256)})`;
        continue;
      }
      const entry = entryFileOf({ manifest: c.manifest, dir });
      const entryRel = entry === null ? null : path.relative(dir, entry) || path.basename(entry);
      const entryHash = entry === null ? null : safeHash(entry);
      if (entryRel !== wanted.entry_file || entryHash !== wanted.entry_sha256) {
        why = `its entry file ${wanted.entry_file ?? '(none)'} differs from the run manifest (sha256 ${short(entryHash)} ≠ ${short(wanted.entry_sha256)})`;
        continue;
      }
      // The run's lifecycle (its definition may override the manifest's): warm agents stay warm on this worker.
      const manifest: AgentManifest = { ...c.manifest, lifecycle: wanted.lifecycle ?? 'per-game' };
      return { agent: { id: wanted.id, name: manifest.name, manifest, manifestFile: c.manifestFile, dir } };
    }
    return { problem: `agent ${wanted.id} (${wanted.manifest_id}): ${why}` };
  }

  private scan(): Map<string, Candidate[]> {
    if (this.index) return this.index;
    const index = new Map<string, Candidate[]>();
    for (const root of this.roots)
      for (const file of findManifests(root)) {
        try {
          const manifest = loadManifest(file);
          index.set(manifest.id, [...(index.get(manifest.id) ?? []), { manifestFile: file, manifest }]);
        } catch {
          // A broken manifest is no candidate; `arena agents validate` says why.
        }
      }
    this.index = index;
    return index;
  }
}

function safeHash(file: string): string | null {
  try {
    return fs.statSync(file).isFile() ? fileSha256(file) : null;
  } catch {
    return null;
  }
}

function short(hash: string | null): string {
  return hash === null ? 'missing' : hash.slice(0, 12);
}
