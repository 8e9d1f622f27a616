// Finds agent.yaml files under an agent folder and reads each one into a catalog entry. A folder may be an agent
// itself, a folder of agents, or group them one or two levels deeper (challenges/psi/agents, agents/model-agent/examples);
// descent stops at the first agent.yaml on a path. A manifest that does not load is an entry with its problems.
import fs from 'node:fs';
import path from 'node:path';
import type { CatalogAgent } from '../contract/agent-catalog.js';
import { loadManifest, MANIFEST_FILE, ManifestLoadError } from './manifest-loader.js';

/** Levels below the folder that are searched (the folder itself is level 0). */
export const SCAN_DEPTH = 3;

/**
 * Bounds of one scan of the Agents page: a folder the user adds may be huge (a home directory, a checkout with
 * thousands of subfolders), and a scan must neither run for ever nor keep the engine from answering meanwhile.
 */
export const SCAN_LIMITS = { depth: SCAN_DEPTH, directories: 2000, manifests: 500, ms: 5000 } as const;

const descend = (e: fs.Dirent) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules';

/** Absolute agent.yaml paths under `folder`, sorted. Unreadable folders are skipped; a missing folder has none. */
export function findManifests(folder: string, depth = SCAN_DEPTH, budget = { directories: SCAN_LIMITS.directories }): string[] {
  const file = path.join(folder, MANIFEST_FILE);
  if (fs.existsSync(file)) return [path.resolve(file)];
  if (depth === 0 || budget.directories <= 0) return [];
  budget.directories--;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter(descend)
    .map((e) => e.name)
    .sort()
    .flatMap((name) => findManifests(path.join(folder, name), depth - 1, budget));
}

export interface ScanResult {
  agents: CatalogAgent[];
  /** Why the scan stopped early (a limit), or null when it saw everything. */
  incomplete: string | null;
}

/**
 * The catalog entries of several folders, off the request path: directory reads are asynchronous and the event loop
 * gets a turn before every manifest is read (each read is capped at MAX_DEFINITION_BYTES), so /health and every
 * other route keep answering while a big folder is scanned. `skip` deduplicates a manifest reachable twice.
 */
export async function scanFolders(
  folders: readonly { id: string; path: string }[],
  skip: (file: string) => boolean,
  limits: { depth: number; directories: number; manifests: number; ms: number } = SCAN_LIMITS,
): Promise<ScanResult> {
  const started = performance.now();
  const agents: CatalogAgent[] = [];
  let directories = 0;
  let incomplete: string | null = null;
  const stop = (why: string) => {
    incomplete ??= why;
  };
  const overTime = () => performance.now() - started > limits.ms;

  async function walk(folder: string, depth: number, folderId: string): Promise<void> {
    if (incomplete !== null) return;
    if (overTime()) return stop(`scan stopped after ${limits.ms / 1000} s`);
    const file = path.join(folder, MANIFEST_FILE);
    if (await exists(file)) {
      if (agents.length >= limits.manifests) return stop(`scan stopped at ${limits.manifests} manifests`);
      const resolved = path.resolve(file);
      if (skip(resolved)) return;
      await new Promise((resolve) => setImmediate(resolve));
      agents.push(catalogEntry(resolved, folderId));
      return;
    }
    if (depth === 0) return;
    if (++directories > limits.directories) return stop(`scan stopped after ${limits.directories} folders`);
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const name of entries
      .filter(descend)
      .map((e) => e.name)
      .sort())
      await walk(path.join(folder, name), depth - 1, folderId);
  }

  for (const folder of folders) await walk(folder.path, limits.depth, folder.id);
  return { agents, incomplete };
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.promises.access(file);
    return true;
  } catch {
    return false;
  }
}

/** One catalog entry; never throws for a bad manifest. */
export function catalogEntry(manifestPath: string, folderId: string): CatalogAgent {
  const base = { manifest_path: manifestPath, dir: path.dirname(manifestPath), folder_id: folderId };
  try {
    const m = loadManifest(manifestPath);
    return {
      ...base,
      ok: true,
      problems: [],
      id: m.id,
      name: m.name,
      description: m.description ?? null,
      protocols: [m.protocol],
      challenges: m.challenges,
      scenarios: m.scenarios,
      secrets: m.secrets,
    };
  } catch (error) {
    const problems = error instanceof ManifestLoadError ? [...error.problems] : [(error as Error).message];
    return {
      ...base,
      ok: false,
      problems,
      id: null,
      name: null,
      description: null,
      protocols: [],
      challenges: [],
      scenarios: [],
      secrets: [],
    };
  }
}
