// Where the shell finds its build output and the arena's data folder. Pure, so the rules are unit-tested.
import path from 'node:path';

export const APP_DIR_NAME = 'Local Arena';

export interface ShellPaths {
  rendererDir: string;
  preloadPath: string;
  engineEntry: string;
}

/** `distDir` is dist/ (main.js lives in dist/main/); inside the asar archive the same layout holds. */
export function shellPaths(distDir: string): ShellPaths {
  return {
    rendererDir: path.join(distDir, 'renderer'),
    // Sandboxed preloads must be one CommonJS file, so the preload is bundled rather than emitted by tsc.
    preloadPath: path.join(distDir, 'preload', 'index.cjs'),
    engineEntry: path.join(distDir, 'engine', 'entry.js'),
  };
}

/** Same precedence as `arena serve`: --data-dir, then ARENA_DATA_DIR, then the OS user-data folder shared with the CLI. */
export function resolveShellDataDir(argv: readonly string[], env: Record<string, string | undefined>, appDataDir: string): string {
  let flag: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--data-dir') flag = argv[i + 1];
    else if (arg.startsWith('--data-dir=')) flag = arg.slice('--data-dir='.length);
  }
  const chosen = flag || env.ARENA_DATA_DIR;
  return path.resolve(chosen && chosen.length > 0 ? chosen : path.join(appDataDir, APP_DIR_NAME));
}

/**
 * The Node binary the packaged app ships for agents (electron-builder.yml `extraResources`, prepared by
 * scripts/node-runtime.mjs): `<resources>/node-runtime/bin/node`, `node.exe` on Windows.
 */
export function shippedNodePath(resourcesPath: string, platform: NodeJS.Platform = process.platform): string {
  return path.join(resourcesPath, 'node-runtime', 'bin', platform === 'win32' ? 'node.exe' : 'node');
}
