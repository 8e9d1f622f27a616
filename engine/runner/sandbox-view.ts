// What an agent sees of the file system inside the OS sandbox, deny by default: the system's program and library
// folders, a few files of /etc (CA certificates, the loader cache, time zones — never /etc/shadow or host keys), the
// agents' Node runtime (node-runtime.ts), the app's agent-facing folders (agents/, agent-kit/, challenges/, the built
// dist/ and its node_modules for `arena-agent`) and the agent's own folder, all read-only; its workspace read-write.
// Nothing of $HOME, the data directory, other seats' workspaces or the user's files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { agentBinDir } from './agent-bins.js';
import { agentNodeRuntime } from './node-runtime.js';

export class SandboxViewError extends Error {}

export interface ReadOnlyPath {
  /** The real (symlink-resolved) path on the host. */
  source: string;
  /** Where it appears inside: the path as the agent's command names it. */
  target: string;
}

export interface SandboxView {
  /** Top-level system symlinks to recreate (`/bin` → `usr/bin` on merged-/usr systems). */
  symlinks: Array<{ link: string; target: string }>;
  readOnly: ReadOnlyPath[];
  /** Paths inside a visible folder that must stay hidden (the data directory): an empty folder is mounted over them. */
  hidden: string[];
  /** Files inside a visible folder that must stay unread (an agent's `.env`): an empty file is mounted over them. */
  hiddenFiles?: string[];
  workspace: string;
  /** The agent's PATH inside: the host PATH's folders that are visible, the app's launchers first. */
  searchPath: string;
}

const LINUX_SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** /etc entries programs need to start, verify TLS and name things; everything else of /etc stays out. */
const LINUX_ETC = [
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/pki',
  '/etc/crypto-policies',
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/localtime',
  '/etc/zoneinfo',
  '/etc/nsswitch.conf',
  '/etc/protocols',
  '/etc/services',
  '/etc/mime.types',
  '/etc/gai.conf',
  '/etc/os-release',
];
/** The app folders agents use, relative to the app root. */
const APP_FOLDERS = ['agents', 'agent-kit', 'challenges', 'dist', 'node_modules', 'package.json'];

export interface ViewInput {
  agentDir: string;
  workspace: string;
  /** The host PATH the agent would have had (with the app's launchers first). */
  hostPath: string | undefined;
  /** Folders that must stay invisible even inside a visible folder (the data directory). */
  privatePaths?: readonly string[];
  /** Extra programs the sandbox itself runs (socat). */
  tools?: readonly string[];
  home?: string;
}

/** The system and app part of a view does not change while the engine runs: it is looked up once per home folder. */
const baseViews = new Map<string, { symlinks: SandboxView['symlinks']; readOnly: ReadOnlyPath[] }>();

export function linuxView(input: ViewInput): SandboxView {
  const home = path.resolve(input.home ?? os.homedir());
  const adder = (readOnly: ReadOnlyPath[]) => (target: string) => {
    const source = realOrNull(target);
    if (source !== null && !readOnly.some((r) => r.target === target)) readOnly.push({ source, target });
  };
  let base = baseViews.get(`linux:${home}`);
  if (base === undefined) {
    base = { symlinks: [], readOnly: [] };
    const add = adder(base.readOnly);
    for (const dir of LINUX_SYSTEM) {
      const stat = lstatOrNull(dir);
      if (stat?.isSymbolicLink()) base.symlinks.push({ link: dir, target: fs.readlinkSync(dir) });
      else if (stat?.isDirectory()) add(dir);
    }
    for (const entry of LINUX_ETC) add(entry);
    addApp(home, add);
    baseViews.set(`linux:${home}`, base);
  }
  const readOnly = [...base.readOnly];
  addOwn(input, home, adder(readOnly));
  return finish(input, [...base.symlinks], readOnly);
}

/** The same folders for the macOS profile (system roots differ; the rest is shared). */
export function macView(input: ViewInput): SandboxView {
  const home = path.resolve(input.home ?? os.homedir());
  const adder = (readOnly: ReadOnlyPath[]) => (target: string) => {
    const source = realOrNull(target);
    if (source !== null && !readOnly.some((r) => r.source === source)) readOnly.push({ source, target: source });
  };
  let base = baseViews.get(`mac:${home}`);
  if (base === undefined) {
    base = { symlinks: [], readOnly: [] };
    const add = adder(base.readOnly);
    for (const dir of ['/usr', '/bin', '/sbin', '/System', '/Library/Apple', '/private/etc/ssl', '/opt/homebrew', '/usr/local']) add(dir);
    addApp(home, add);
    baseViews.set(`mac:${home}`, base);
  }
  const readOnly = [...base.readOnly];
  addOwn(input, home, adder(readOnly));
  return finish(input, [], readOnly);
}

/** The engine's Node runtime and the app's agent-facing folders. */
function addApp(home: string, add: (target: string) => void): void {
  // The agents' Node (the app's own, else the engine's): agents run `node`, and the app's launchers run on it.
  const node = agentNodeRuntime();
  const runtime = node === null ? null : runtimePrefix(node.path);
  if (runtime !== null && !contains(runtime, home) && runtime !== path.parse(runtime).root) add(runtime);
  const bin = agentBinDir();
  if (bin !== null) {
    const root = path.resolve(bin, '../..');
    for (const rel of APP_FOLDERS) if (fs.existsSync(path.join(root, rel))) add(path.join(root, rel));
    // Where Node resolves the app's packages when the app has no node_modules of its own (a build inside another).
    if (!fs.existsSync(path.join(root, 'node_modules')))
      for (let dir = path.dirname(root); dir !== path.dirname(dir); dir = path.dirname(dir))
        if (path.basename(dir) !== 'node_modules' && fs.existsSync(path.join(dir, 'node_modules'))) {
          add(path.join(dir, 'node_modules'));
          break;
        }
  }
}

/** What this launch adds: the programs the sandbox itself runs, and the agent's own folder (never one holding home). */
function addOwn(input: ViewInput, home: string, add: (target: string) => void): void {
  const guarded = (dir: string, what: string): void => {
    const real = realOrNull(dir) ?? dir;
    for (const candidate of new Set([dir, real])) {
      if (candidate === path.parse(candidate).root || contains(candidate, home))
        throw new SandboxViewError(
          `${what} ${dir} contains your home folder; the sandbox cannot show it without your files (put the agent in a folder of its own)`,
        );
    }
  };
  for (const tool of input.tools ?? []) add(tool);
  guarded(input.agentDir, "the agent's folder");
  add(path.resolve(input.agentDir));
}

function finish(input: ViewInput, symlinks: SandboxView['symlinks'], readOnly: ReadOnlyPath[]): SandboxView {
  const hidden: string[] = [];
  const hiddenFiles: string[] = [];
  for (const p of input.privatePaths ?? []) {
    const resolved = path.resolve(p);
    const real = realOrNull(resolved) ?? resolved;
    const file = lstatOrNull(real)?.isFile() === true;
    for (const r of readOnly) {
      // A folder inside the data directory (an agent kept there) shows only itself, so only the reverse needs hiding.
      if (contains(r.source, real) && real !== r.source)
        (file ? hiddenFiles : hidden).push(path.join(r.target, path.relative(r.source, real)));
    }
  }
  // Plain prefix tests on resolved paths: this runs for every PATH folder against every mount, on every launch.
  const within = (outer: string, inner: string): boolean =>
    inner === outer || inner.startsWith(outer.endsWith(path.sep) ? outer : outer + path.sep);
  const visible = (dir: string): boolean => {
    const at = path.resolve(dir);
    return symlinks.some((s) => within(s.link, at)) || readOnly.some((r) => within(r.target, at) || within(r.source, at));
  };
  const searchPath = [...new Set((input.hostPath ?? '').split(path.delimiter).filter((d) => d !== '' && path.isAbsolute(d) && visible(d)))];
  return {
    symlinks,
    readOnly,
    hidden,
    ...(hiddenFiles.length > 0 ? { hiddenFiles } : {}),
    workspace: path.resolve(input.workspace),
    searchPath: searchPath.join(path.delimiter),
  };
}

/** `/opt/node/bin/node` → `/opt/node`; a binary outside a `bin` folder → its own folder. */
function runtimePrefix(execPath: string): string | null {
  const real = realOrNull(execPath);
  if (real === null) return null;
  const dir = path.dirname(real);
  return path.basename(dir) === 'bin' ? path.dirname(dir) : dir;
}

/** True when `inner` is `outer` or inside it. */
export function contains(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function realOrNull(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}
