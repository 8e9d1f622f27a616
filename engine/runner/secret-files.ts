// Files in an agent's own folder that look like secrets the user did not mean to hand over: `.env` and `.env.*`
// files, and data directories (a folder holding `secrets/rng.key` or `arena.sqlite`, such as an old copy of the
// engine's own). The sandbox hides them from the agent like the data directory, and `arena agents validate` warns.
// The walk is bounded (depth and entries), skips node_modules and .git, and never follows symlinks.
import fs from 'node:fs';
import path from 'node:path';

const MAX_DEPTH = 4;
const MAX_ENTRIES = 5_000;
const SKIPPED = new Set(['node_modules', '.git', '__pycache__', '.venv', 'venv']);

export interface SecretLookingPath {
  path: string;
  why: string;
}

/** Secret-looking files and data directories under `agentDir` (absolute paths, in walk order). */
export function secretLookingPaths(agentDir: string): SecretLookingPath[] {
  const found: SecretLookingPath[] = [];
  let budget = MAX_ENTRIES;
  const walk = (dir: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const names = new Set(entries.map((e) => e.name));
    const rngKey = fs.existsSync(path.join(dir, 'secrets', 'rng.key'));
    if (depth > 0 && (names.has('arena.sqlite') || rngKey)) {
      found.push({ path: dir, why: 'a data directory (arena.sqlite or secrets/rng.key)' });
      return;
    }
    for (const entry of entries) {
      if (--budget < 0) return;
      const full = path.join(dir, entry.name);
      if (entry.isFile() && (entry.name === '.env' || entry.name.startsWith('.env.')))
        found.push({ path: full, why: 'an environment file (.env)' });
      // The agent's folder itself holding a data directory's files: those are hidden, not the whole agent.
      else if (entry.isFile() && entry.name.startsWith('arena.sqlite')) found.push({ path: full, why: 'an engine database' });
      else if (entry.isDirectory() && entry.name === 'secrets' && rngKey) found.push({ path: full, why: 'engine secrets (rng.key)' });
      else if (entry.isDirectory() && depth < MAX_DEPTH && !SKIPPED.has(entry.name)) walk(full, depth + 1);
    }
  };
  walk(path.resolve(agentDir), 0);
  return found;
}
