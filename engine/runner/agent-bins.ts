// Local Arena's own agent launchers (agents/bin, e.g. `arena-agent`) are found by name from a manifest anywhere: the
// runner puts their folder first on the agent's PATH. The folder holds agent launchers only, so no engine tool (the
// `arena` CLI) becomes reachable that way, and the rest of PATH is the host's, which the allow-list passes already.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { outsideArchive } from '../runtime/package-root.js';

/**
 * agents/bin next to this build: two levels up from engine/runner, three from dist/engine/runner. In the packaged app
 * that is inside the archive, which only Electron reads: the launchers run from its unpacked copy.
 */
export function agentBinDir(): string | null {
  for (const rel of ['../../agents/bin/', '../../../agents/bin/']) {
    const dir = fileURLToPath(new URL(rel, import.meta.url));
    if (fs.existsSync(path.join(dir, 'arena-agent'))) return outsideArchive(path.resolve(dir));
  }
  return null;
}

/** PATH with the launchers' folder first (once); unchanged when there is no such folder. */
export function withAgentBins(pathEnv: string | undefined, binDir: string | null = agentBinDir()): string | undefined {
  if (binDir === null) return pathEnv;
  const rest = (pathEnv ?? '').split(path.delimiter).filter((dir) => dir !== '' && path.resolve(dir) !== binDir);
  return [binDir, ...rest].join(path.delimiter);
}
