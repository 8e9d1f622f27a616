// The app's own folders (shipped agents, scenarios), found from this module's location rather than the working folder,
// so `arena serve` started anywhere and the desktop app see the same built-in content.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** The folder holding the app's package.json: the repository from source, the app folder when built. */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        if ((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'local-arena') {
          cached = dir;
          return dir;
        }
      } catch {
        // not ours; keep climbing
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the Local Arena package folder');
    dir = parent;
  }
}

/**
 * Where the shipped agents and scenarios live on disk. In a packaged desktop app the package folder is an asar archive
 * that only Electron can read; agents run under the host's own interpreters, so their folders ship unpacked beside it
 * (electron-builder.yml `asarUnpack`).
 */
export function contentRoot(root = packageRoot()): string {
  const unpacked = `${root}.unpacked`;
  return root.endsWith('.asar') && fs.existsSync(unpacked) ? unpacked : root;
}

/**
 * The copy of a file of the archive that programs other than Electron can read: `…/app.asar/agents/bin` →
 * `…/app.asar.unpacked/agents/bin` when that exists (electron-builder.yml `asarUnpack`); any other path unchanged.
 */
export function outsideArchive(file: string): string {
  const parts = file.split(path.sep);
  const at = parts.findIndex((part) => part.endsWith('.asar'));
  if (at < 0) return file;
  const unpacked = [...parts.slice(0, at), `${parts[at]}.unpacked`, ...parts.slice(at + 1)].join(path.sep);
  return fs.existsSync(unpacked) ? unpacked : file;
}

/** Scenarios shipped with the app (what `arena scenarios list` shows from the repository folder). */
export function builtinScenariosDir(root = contentRoot()): string {
  return path.join(root, 'scenarios');
}

export interface BuiltinFolder {
  /** `builtin:<path relative to the package folder>`, with forward slashes. */
  id: string;
  path: string;
}

function subfolders(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules')
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * Agent folders shipped with the app: every challenge's, game's and scenario's `agents/` folder, `agents/` (ClawArena
 * baselines, model-agent examples) and `examples/agents`. Only those that exist.
 */
export function builtinAgentFolders(root = contentRoot()): BuiltinFolder[] {
  const rel: string[] = [];
  // The packaged app carries the built challenges only (dist/challenges): their agents are listed from there.
  const challenges = fs.existsSync(path.join(root, 'challenges')) ? 'challenges' : 'dist/challenges';
  for (const parent of [challenges, 'games', 'scenarios'])
    for (const name of subfolders(path.join(root, parent))) rel.push(`${parent}/${name}/agents`);
  rel.push('agents', 'examples/agents');
  return rel
    .filter((r) => fs.existsSync(path.join(root, r)) && fs.statSync(path.join(root, r)).isDirectory())
    .map((r) => ({ id: `builtin:${r}`, path: path.join(root, ...r.split('/')) }));
}
