// Loads and discovers agent manifests (spec §2.1, §2.3): per-field errors, sorted discovery over official and community
// roots, duplicate ids rejected, community agents restricted to docker.
import fs from 'node:fs';
import path from 'node:path';
import { type AgentManifest, AgentManifestSchema } from '../contract/manifest.js';
import { formatIssues } from '../contract/schema-issues.js';
import { DefinitionFileError, readYamlMapping } from './yaml-file.js';

export const MANIFEST_FILE = 'agent.yaml';
const MANIFEST_KEYS = Object.keys(AgentManifestSchema.in.shape);

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
  const read = readYamlMapping(file, { kind: 'an agent manifest', knownKeys: MANIFEST_KEYS });
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

/** Every agent of both roots that loads, and every manifest that does not with its problems (`arena agents list`). */
export function surveyAgents(
  roots: { official?: string; community?: string },
  filter: AgentFilter = {},
): { agents: LoadedAgent[]; invalid: ManifestLoadError[] } {
  const all: LoadedAgent[] = [];
  const invalid: ManifestLoadError[] = [];
  const load = (dir: string, source: AgentSource) => {
    try {
      all.push(loadAgentDir(dir, source));
    } catch (error) {
      if (!(error instanceof ManifestLoadError)) throw error;
      invalid.push(error);
    }
  };
  if (roots.official) for (const dir of agentDirs(roots.official)) load(dir, 'official');
  if (roots.community) for (const dir of agentDirs(roots.community)) load(dir, 'community');
  const byId = new Map<string, LoadedAgent>();
  const valid = all.filter((agent) => {
    const other = byId.get(agent.manifest.id);
    if (other) invalid.push(new ManifestLoadError(agent.file, [`id: duplicate agent id '${agent.manifest.id}' (also in ${other.file})`]));
    else if (agent.source === 'community' && agent.manifest.entrypoint.type === 'command')
      invalid.push(new ManifestLoadError(agent.file, ['entrypoint.type: community agents must use a docker entrypoint']));
    else byId.set(agent.manifest.id, agent);
    return !other && !(agent.source === 'community' && agent.manifest.entrypoint.type === 'command');
  });
  const agents = valid
    .filter((a) => filter.framework === undefined || a.manifest.framework === filter.framework)
    .filter((a) => filter.scenario === undefined || a.manifest.scenarios.includes(filter.scenario))
    .filter((a) => filter.source === undefined || a.source === filter.source)
    .filter((a) => filter.protocol === undefined || a.manifest.protocol === filter.protocol)
    .sort((a, b) => (a.manifest.id < b.manifest.id ? -1 : a.manifest.id > b.manifest.id ? 1 : 0));
  return { agents, invalid };
}

/** Every agent of both roots; any invalid manifest aborts the whole discovery (the first one is thrown). */
export function discoverAgents(roots: { official?: string; community?: string }, filter: AgentFilter = {}): LoadedAgent[] {
  const { agents, invalid } = surveyAgents(roots, filter);
  if (invalid[0]) throw invalid[0];
  return agents;
}
