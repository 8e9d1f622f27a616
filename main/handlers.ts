// The native side of every IPC channel, built from injected Electron pieces so the wiring runs in plain Node tests.
import path from 'node:path';
import type { IpcHandlers } from './ipc.js';
import { createSaveFileHandler, type ShowSaveDialog } from './save-file.js';
import type { SecretStore } from './secret-store.js';

export interface ShellHandlerDeps {
  engine: { connection: IpcHandlers['engineConnection']; send(message: unknown): void };
  secrets: SecretStore;
  /** Builds the engine's `secrets` update after a change (engine-secrets.ts). */
  secretsUpdate: () => unknown;
  dataDir: string;
  appVersion: () => string;
  openExternal: (url: string) => Promise<void>;
  showItemInFolder: (fullPath: string) => void;
  /** Electron's shell.openPath: resolves to an error message, '' on success. */
  openPath: (fullPath: string) => Promise<string>;
  showSaveDialog: ShowSaveDialog;
  /** Where exports go by default: e.g. the user's Downloads, then Documents. */
  exportDirs: () => string[];
  dirExists: (dir: string) => boolean;
  writeFile?: (file: string, content: string | Uint8Array) => Promise<void>;
}

export function createShellHandlers(deps: ShellHandlerDeps): IpcHandlers {
  const saveFile = createSaveFileHandler({
    showSaveDialog: deps.showSaveDialog,
    candidateDirs: deps.exportDirs,
    dirExists: deps.dirExists,
    ...(deps.writeFile ? { write: deps.writeFile } : {}),
  });

  /** Every change is pushed to the running engine right away, so the next agent launch sees it. */
  const changed = <T>(result: T): T => {
    deps.engine.send(deps.secretsUpdate());
    return result;
  };

  return {
    engineConnection: () => deps.engine.connection(undefined),
    shellOpenExternal: async ({ url }) => {
      await deps.openExternal(url);
      return undefined;
    },
    shellRevealInFolder: ({ path: target }) => {
      if (!path.isAbsolute(target)) throw new Error('revealInFolder needs an absolute path');
      deps.showItemInFolder(target);
      return undefined;
    },
    appVersion: () => deps.appVersion(),
    shellSaveFile: (request) => saveFile(request),
    shellRevealDataFolder: async () => {
      const failure = await deps.openPath(deps.dataDir);
      if (failure !== '') throw new Error(`The data folder could not be opened: ${failure}`);
      return undefined;
    },
    secretsList: () => deps.secrets.list(),
    secretsSet: ({ name, value }) => changed(deps.secrets.set(name, value)),
    secretsDelete: ({ name }) => changed(deps.secrets.delete(name)),
  };
}
