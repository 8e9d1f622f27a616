// The Node that runs agents started as `node …` and the app's own launchers (`arena-agent`): the Node the desktop
// app ships (the shell names it in ARENA_AGENT_NODE), else, under plain Node, the engine's own binary. Inside Electron
// without a shipped runtime (a development `electron .`) there is none, and `node` is looked up on PATH like any
// program. Agents never depend on a Node the user happened to install, nor on the PATH a Finder launch gets.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AGENT_NODE_ENV } from '../contract/channels.js';
import { isExecutableFile } from './executable.js';

export interface NodeRuntime {
  /** Absolute path of the binary. */
  path: string;
  /** 'shipped': named by ARENA_AGENT_NODE (the desktop app's own); 'engine': the Node running this engine. */
  source: 'shipped' | 'engine';
}

/** What a run manifest records of the runtime its `node` agents ran on. */
export interface NodeRuntimeRecord {
  source: NodeRuntime['source'];
  version: string;
  sha256: string;
}

export class NodeRuntimeError extends Error {}

/** The agents' Node here, or null when there is none to offer (inside Electron without a shipped runtime). */
export function agentNodeRuntime(env: NodeJS.ProcessEnv = process.env): NodeRuntime | null {
  const named = env[AGENT_NODE_ENV];
  if (named !== undefined && named !== '') {
    if (!path.isAbsolute(named) || !isExecutableFile(named))
      throw new NodeRuntimeError(`${AGENT_NODE_ENV} must name the Node binary by its absolute path; ${named} is not an executable file`);
    return { path: named, source: 'shipped' };
  }
  if (process.versions.electron !== undefined) return null;
  return { path: process.execPath, source: 'engine' };
}

const records = new Map<string, NodeRuntimeRecord>();
/** Digests being computed in the background, by the same key. */
const pending = new Map<string, Promise<void>>();

function keyOf(runtime: NodeRuntime, stat: fs.Stats): string {
  return `${runtime.source}\0${runtime.path}\0${stat.size}\0${stat.mtimeMs}`;
}

function versionOf(runtime: NodeRuntime): string {
  return runtime.source === 'engine' && runtime.path === process.execPath
    ? process.version
    : execFileSync(runtime.path, ['--version'], { encoding: 'utf8', timeout: 30_000, env: {} }).trim();
}

/** Version and SHA-256 of a runtime, computed once per binary (a Node binary is ~100 MB; a file change is noticed). */
export function nodeRuntimeRecord(runtime: NodeRuntime): NodeRuntimeRecord {
  const stat = fs.statSync(runtime.path);
  const key = keyOf(runtime, stat);
  const known = records.get(key);
  if (known) return known;
  // Not hashed in the background yet: at once, holding the event loop (seconds on a loaded machine).
  const record = {
    source: runtime.source,
    version: versionOf(runtime),
    sha256: createHash('sha256').update(fs.readFileSync(runtime.path)).digest('hex'),
  };
  records.set(key, record);
  return record;
}

/**
 * Hashes the agents' runtime in the background, a chunk per turn of the event loop, so the first tournament created
 * finds the digest ready instead of reading ~100 MB while the engine stops answering. Never throws: a runtime that
 * cannot be read is reported when a tournament records it.
 */
export function prepareNodeRuntimeRecord(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let runtime: NodeRuntime | null;
  let stat: fs.Stats;
  try {
    runtime = agentNodeRuntime(env);
    if (runtime === null) return Promise.resolve();
    stat = fs.statSync(runtime.path);
  } catch {
    return Promise.resolve();
  }
  const key = keyOf(runtime, stat);
  if (records.has(key)) return Promise.resolve();
  const known = pending.get(key);
  if (known) return known;
  const found = runtime;
  const done = new Promise<void>((resolve) => {
    const hash = createHash('sha256');
    fs.createReadStream(found.path, { highWaterMark: 1 << 20 })
      .on('data', (chunk) => hash.update(chunk))
      .on('error', () => resolve())
      .on('end', () => {
        try {
          if (!records.has(key)) records.set(key, { source: found.source, version: versionOf(found), sha256: hash.digest('hex') });
        } catch {
          // The version could not be read: left to the synchronous path, which reports it.
        }
        resolve();
      });
  }).finally(() => pending.delete(key));
  pending.set(key, done);
  return done;
}

/** The environment `node` agents and every agent's program lookup get, as a run manifest records it. */
export interface AgentHostRecord {
  /** The agents' Node; null when `node` is whatever PATH finds (inside Electron without a shipped runtime). */
  node: NodeRuntimeRecord | null;
  /** The PATH agents start from (the app's launchers go first); a run manifest writes its local folders as labels. */
  path: string;
}

export function agentHostRecord(hostEnv: NodeJS.ProcessEnv): AgentHostRecord {
  const runtime = agentNodeRuntime();
  return { node: runtime === null ? null : nodeRuntimeRecord(runtime), path: hostEnv.PATH ?? '' };
}
