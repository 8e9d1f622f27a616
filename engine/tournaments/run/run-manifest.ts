// The run manifest (§10): app version, the definition, the seed, and SHA-256 of every agent manifest, entry file and
// challenge module folder. Its canonical-JSON hash guards resume: a changed agent or challenge is a different run.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { modelServerOf } from '../../runner/model-server.js';
import type { AgentHostRecord } from '../../runner/node-runtime.js';
import { canonicalJson, sha256Hex } from '../../runtime/canonical-json.js';
import type { ModelBuild } from '../../runtime/model-build.js';
import { APP_VERSION } from '../../runtime/version.js';
import { type LoadedSpec, resolveEntryFile } from '../spec-file.js';

/** 2: agents named by manifest id (never a path), their names, and the definition's manifest paths made portable. */
export const RUN_MANIFEST_VERSION = 2;

export interface RunManifest {
  manifest_version: number;
  app: { name: string; version: string };
  spec: Record<string, unknown>;
  seed: string | number;
  seed_rule: string;
  placement_rule: string;
  agents: Array<{
    id: string;
    manifest_id: string;
    name: string;
    manifest_sha256: string;
    entry_file: string | null;
    entry_sha256: string | null;
    /** Why no entry file is recorded though the command names one (outside the agent's folder); absent otherwise. */
    entry_file_skipped?: string;
    /** Present for warm agents only, so the hash of runs with per-game agents stays what it was. */
    lifecycle?: 'persistent';
    max_concurrent_games?: number;
    /** Model agents only: the server and model their model.yaml names and the sampler settings they play with. */
    model?: RunModelRecord;
  }>;
  challenges: Array<{ id: string; module_sha256: string }>;
  /** Agents whose folder the user marked trusted: they ran without the OS sandbox (absent when none did). */
  unsandboxed_agents?: string[];
  /** The Node runtime `node` agents ran on and the PATH their programs were found on (absent for game workers' runs). */
  agent_host?: AgentHostRecord;
}

export interface RunModelRecord {
  provider: string;
  base_url: string;
  model: string;
  sampler: { temperature: number; max_tokens: number; seed: number | null; json_mode: boolean };
  /** model.yaml's capacity, or null (the server's report, else 1: engine/runner/model-gate.ts). */
  capacity: number | null;
  /** model.yaml `cache: true`: identical requests were answered from earlier runs' answers (model-cache.ts). */
  cache?: true;
  /**
   * The server's kind and version and the model's digest, as the server reported them before the run
   * (engine/runtime/model-build.ts); absent when nobody asked (a service without the probe). Resume compares it apart
   * (preflightRun): a server asked again may answer later or not at all, which changes no game.
   */
  build?: ModelBuild;
}

/** The model builds the engine found before a run, by agent id. */
export type ModelBuilds = ReadonlyMap<string, ModelBuild>;

function modelRecord(
  manifest: LoadedSpec['agents'][number]['manifest'],
  dir: string,
  build: ModelBuild | undefined,
): RunModelRecord | null {
  const server = modelServerOf(manifest, dir);
  if (server === null) return null;
  return {
    provider: server.provider,
    base_url: server.baseUrl,
    model: server.model,
    sampler: server.sampler,
    capacity: server.capacity ?? null,
    // Only when on, so the hash of runs without the cache stays what it was.
    ...(server.cache ? { cache: true } : {}),
    ...(build ? { build } : {}),
  };
}

/** The builds a stored run manifest recorded, by agent id. */
export function recordedBuilds(manifest: Record<string, unknown>): Map<string, ModelBuild> {
  const agents = (Array.isArray(manifest.agents) ? manifest.agents : []) as Array<{ id?: unknown; model?: { build?: ModelBuild } }>;
  const builds = new Map<string, ModelBuild>();
  for (const a of agents) if (typeof a.id === 'string' && a.model?.build) builds.set(a.id, a.model.build);
  return builds;
}

/** A manifest without its agents' model builds: what resume compares. */
function withoutBuilds(manifest: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(manifest.agents)) return manifest;
  const agents = manifest.agents.map((a: Record<string, unknown>) => {
    const model = a.model as Record<string, unknown> | undefined;
    if (!model || !('build' in model)) return a;
    const { build, ...rest } = model;
    return { ...a, model: rest };
  });
  return { ...manifest, agents };
}

export function fileSha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Hash of a folder: relative path and content hash of every file, sorted; agent subfolders are left out. */
export function folderSha256(dir: string, skip: (rel: string) => boolean = () => false): string {
  const lines: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (skip(child)) continue;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) lines.push(`${child}\u0000${fileSha256(path.join(dir, child))}`);
    }
  };
  walk('');
  lines.sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

const PLACEMENT_RULE = 'higher utility places first; equal utility is broken by higher security; equal on both is a draw';
/** Only runs with ClawArena games say so, so the hash of existing SpecArena runs stays what it was. */
const CLAW_PLACEMENT_RULE = 'ClawArena games: the placements of the match result (1 = best, ties share a place)';

export function buildRunManifest(
  loaded: LoadedSpec,
  challengeDir: (id: string) => string,
  spec: Record<string, unknown>,
  isClawGame: (id: string) => boolean = () => false,
  trusted: readonly string[] = [],
  agentHost?: AgentHostRecord,
  builds: ModelBuilds = new Map(),
): RunManifest {
  const claw = loaded.spec.challenges.some(isClawGame);
  return {
    manifest_version: RUN_MANIFEST_VERSION,
    app: { name: 'local-arena', version: APP_VERSION },
    spec: portableSpec(spec, loaded.specDir),
    seed: loaded.spec.seed,
    seed_rule: 'opening seed = deriveSeed(run seed, "opening:<challenge>:<round>:<pairing>:<opening>") (engine/core/tournament/seeds.ts)',
    placement_rule: claw ? `${PLACEMENT_RULE}; ${CLAW_PLACEMENT_RULE}` : PLACEMENT_RULE,
    agents: loaded.agents.map((a) => {
      const { file: entry, skipped } = resolveEntryFile(a);
      const model = modelRecord(a.manifest, a.dir, builds.get(a.id));
      return {
        id: a.id,
        manifest_id: a.manifest.id,
        name: a.name,
        manifest_sha256: fileSha256(a.manifestFile),
        entry_file: entry === null ? null : path.relative(a.dir, entry) || path.basename(entry),
        entry_sha256: entry === null ? null : fileSha256(entry),
        ...(skipped === null ? {} : { entry_file_skipped: skipped }),
        ...(a.manifest.lifecycle === 'persistent'
          ? { lifecycle: 'persistent' as const, max_concurrent_games: a.manifest.max_concurrent_games }
          : {}),
        ...(model ? { model } : {}),
      };
    }),
    challenges: loaded.spec.challenges.map((id) => ({
      id,
      module_sha256: folderSha256(challengeDir(id), (rel) => rel === 'agents' || rel.startsWith('agents/')),
    })),
    // Only runs with trusted agents say so, so the hash of every sandboxed run stays what it was.
    ...(trusted.length > 0 ? { unsandboxed_agents: [...trusted] } : {}),
    ...(agentHost ? { agent_host: agentHost } : {}),
  };
}

/**
 * Whether a stored run may go on under the manifest built now. Everything that decides the games must match (the model
 * builds apart: preflightRun asks the servers again). The
 * agents' PATH is left out: it is where programs are looked up, not what they are (the agents' own files are hashed),
 * and a resume from another shell or a desktop launch must not strand a run; the manifest keeps the PATH it started
 * with. A run stored before the agents' host was recorded compares without it, so an upgrade does not strand it.
 */
export function resumableUnder(before: Record<string, unknown>, now: RunManifest): boolean {
  const recordedHost = before.agent_host !== undefined;
  const comparable = (manifest: Record<string, unknown>) => {
    const { agent_host, ...rest } = withoutBuilds(manifest);
    const host = agent_host as AgentHostRecord | undefined;
    return recordedHost && host ? { ...rest, agent_host: { node: host.node } } : rest;
  };
  return canonicalJson(comparable(before)) === canonicalJson(comparable(now as unknown as Record<string, unknown>));
}

/** What differs between a run's manifest and the one built now, in words, for the refusal to resume it. */
export function manifestChange(before: Record<string, unknown>, now: RunManifest): string {
  const [was, is] = [withoutBuilds(before), withoutBuilds(now as unknown as Record<string, unknown>)];
  const same = (key: keyof RunManifest) => canonicalJson(was[key] ?? null) === canonicalJson(is[key] ?? null);
  const changed: string[] = [];
  if (!same('app')) changed.push('the app');
  if (!same('agents') || !same('unsandboxed_agents')) changed.push('an agent');
  if (!same('challenges')) changed.push('a challenge');
  const hostBefore = (before.agent_host ?? null) as AgentHostRecord | null;
  if (canonicalJson(hostBefore?.node ?? null) !== canonicalJson(now.agent_host?.node ?? null)) changed.push("the agents' Node runtime");
  if ((hostBefore?.path ?? null) !== (now.agent_host?.path ?? null))
    changed.push(`the agents' PATH (was ${hostBefore?.path ?? 'not recorded'}, now ${now.agent_host?.path ?? 'not recorded'})`);
  return changed.length > 0 ? changed.join(', ') : 'an agent, a challenge or the app';
}

/**
 * The definition as the run manifest and every export carry it: a relative manifest path stays as written (it is
 * relative to the definition file, which is what makes it portable); an absolute one becomes relative to the
 * definition's folder when it lies inside it, and otherwise keeps only its last two segments
 * ("…/honest-exact/agent.yaml"): this machine's folder layout is nobody else's business, and the agent is
 * identified by its hashes anyway.
 */
export function portableSpec(spec: Record<string, unknown>, specDir: string): Record<string, unknown> {
  if (!Array.isArray(spec.agents)) return spec;
  const agents = spec.agents.map((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null || typeof (entry as { manifest?: unknown }).manifest !== 'string') return entry;
    const manifest = (entry as { manifest: string }).manifest;
    return { ...entry, manifest: portablePath(manifest, specDir) };
  });
  return { ...spec, agents };
}

export function portablePath(file: string, baseDir: string): string {
  if (!path.isAbsolute(file)) return file.split(path.sep).join('/');
  const absolute = path.resolve(baseDir, file);
  const rel = path.relative(baseDir, absolute);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) && path.parse(baseDir).root !== path.resolve(baseDir);
  if (inside) return rel.split(path.sep).join('/');
  return `…/${absolute.split(path.sep).filter(Boolean).slice(-2).join('/')}`;
}

export function manifestHash(manifest: RunManifest): string {
  return `sha256:${sha256Hex(canonicalJson(manifest))}`;
}
