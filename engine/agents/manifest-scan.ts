// Finds agent.yaml files under an agent folder and reads each one into a catalog entry. A folder may be an agent
// itself, a folder of agents, or group them one or two levels deeper (challenges/psi/agents, agents/model-agent/examples);
// descent stops at the first agent.yaml on a path. A manifest that does not load is an entry with its problems.
import fs from 'node:fs';
import path from 'node:path';
import type { CatalogAgent } from '../contract/agent-catalog.js';
import { loadManifest, MANIFEST_FILE, ManifestLoadError } from './manifest-loader.js';

/** Levels below the folder that are searched (the folder itself is level 0). */
export const SCAN_DEPTH = 3;

/** Absolute agent.yaml paths under `folder`, sorted. Unreadable folders are skipped; a missing folder has none. */
export function findManifests(folder: string, depth = SCAN_DEPTH): string[] {
  const file = path.join(folder, MANIFEST_FILE);
  if (fs.existsSync(file)) return [path.resolve(file)];
  if (depth === 0) return [];
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules')
    .map((e) => e.name)
    .sort()
    .flatMap((name) => findManifests(path.join(folder, name), depth - 1));
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
