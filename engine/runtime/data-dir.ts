// Where Local Arena keeps its database and secrets: the OS user-data folder unless --data-dir / ARENA_DATA_DIR says otherwise.
import os from 'node:os';
import path from 'node:path';

export const APP_DIR_NAME = 'Local Arena';

/** Same folder Electron's app.getPath('userData') gives, so the CLI and the desktop app share one arena. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform, home = os.homedir()): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_DIR_NAME);
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), APP_DIR_NAME);
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), APP_DIR_NAME);
}

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = flag ?? env.ARENA_DATA_DIR;
  return path.resolve(chosen && chosen.length > 0 ? chosen : defaultDataDir(env));
}
