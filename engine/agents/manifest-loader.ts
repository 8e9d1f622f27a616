// Loads and discovers agent manifests (spec §2.1, §2.3): per-field errors, sorted discovery over official and community
// roots, duplicate ids rejected, community agents restricted to docker.
import fs from 'node:fs';
import path from 'node:path';
import { type AgentManifest, AgentManifestSchema } from '../contract/manifest.js';
import { formatIssues } from '../contract/schema-issues.js';
import { DefinitionFileError, readYamlMapping } from './yaml-file.js';

export const MANIFEST_FILE = 'agent.yaml';

export class ManifestLoadError extends DefinitionFileError {
  override name = 'ManifestLoadError';
}

export type AgentSource = 'official' | 'community';

export interface LoadedAgent {
  manifest: AgentManifest;
  /** Absolute folder of the agent.yaml. */
  dir: string;
  file: string;
  source: AgentSource;
}

export function loadManifest(file: string): AgentManifest {
  const read = readYamlMapping(file);
  if ('problem' in read) throw new ManifestLoadError(file, [read.problem]);
  const parsed = AgentManifestSchema.safeParse(read.value);
  if (!parsed.success) throw new ManifestLoadError(file, formatIssues(parsed.error));
  return parsed.data;
}

export function loadAgentDir(dir: string, source: AgentSource = 'official'): LoadedAgent {
  const abs = path.resolve(dir);
  const file = path.join(abs, MANIFEST_FILE);
  return { manifest: loadManifest(file), dir: abs, file, source };
}

/** `agents validate <dir>`: the manifest must also be named after its folder. */
export function validateAgentDir(dir: string): LoadedAgent {
  const agent = loadAgentDir(dir);
  const folder = path.basename(agent.dir);
  if (agent.manifest.id !== folder)
    throw new ManifestLoadError(agent.file, [`id: '${agent.manifest.id}' must equal the folder name '${folder}'`]);
  return agent;
}

/** Immediate subfolders holding an agent.yaml, sorted; a missing root has none. */
export function agentDirs(root: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
  return entries
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(root, e.name, MANIFEST_FILE)))
    .map((e) => path.resolve(root, e.name))
    .sort();
}

export interface AgentFilter {
  framework?: string;
  scenario?: string;
  source?: AgentSource;
  protocol?: string;
}

/** Every agent of both roots; any invalid manifest aborts the whole discovery. */
export function discoverAgents(roots: { official?: string; community?: string }, filter: AgentFilter = {}): LoadedAgent[] {
  const all: LoadedAgent[] = [];
  if (roots.official) for (const dir of agentDirs(roots.official)) all.push(loadAgentDir(dir, 'official'));
  if (roots.community) for (const dir of agentDirs(roots.community)) all.push(loadAgentDir(dir, 'community'));
  const byId = new Map<string, LoadedAgent>();
  for (const agent of all) {
    const other = byId.get(agent.manifest.id);
    if (other) throw new ManifestLoadError(agent.file, [`id: duplicate agent id '${agent.manifest.id}' (also in ${other.file})`]);
    byId.set(agent.manifest.id, agent);
  }
  for (const agent of all) {
    if (agent.source === 'community' && agent.manifest.entrypoint.type === 'command') {
      throw new ManifestLoadError(agent.file, ['entrypoint.type: community agents must use a docker entrypoint']);
    }
  }
  return all
    .filter((a) => filter.framework === undefined || a.manifest.framework === filter.framework)
    .filter((a) => filter.scenario === undefined || a.manifest.scenarios.includes(filter.scenario))
    .filter((a) => filter.source === undefined || a.source === filter.source)
    .filter((a) => filter.protocol === undefined || a.manifest.protocol === filter.protocol)
    .sort((a, b) => (a.manifest.id < b.manifest.id ? -1 : a.manifest.id > b.manifest.id ? 1 : 0));
}
