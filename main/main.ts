// Electron main: lifecycle only. Start-up order: single-instance lock → protocol and security → engine → IPC → window.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session, shell, utilityProcess } from 'electron';
import { AGENT_NODE_ENV } from '../engine/contract/channels.js';
import { createEngineHost } from './engine-host.js';
import { createEngineSecrets } from './engine-secrets.js';
import { createShellHandlers } from './handlers.js';
import { registerIpc } from './ipc.js';
import { resolveLoginPath } from './login-path.js';
import { resolveShellDataDir, shellPaths, shippedNodePath } from './paths.js';
import { APP_SCHEME_PRIVILEGES, registerAppProtocol } from './protocol.js';
import { installGracefulQuit } from './quit.js';
import { createSecretStore, SECRETS_FILE } from './secret-store.js';
import { denyAllPermissions, hardenWebContents } from './security.js';
import { createMainWindow } from './window.js';

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const paths = shellPaths(distDir);

function boot(dataDir: string): void {
  app.enableSandbox();
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

  const openExternal = (url: string) => shell.openExternal(url);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, openExternal));

  const log = (line: string) => process.stderr.write(`[engine-host] ${line}\n`);
  // Asked while Electron gets ready; the engine starts once it is known (at most the resolver's timeout later).
  const engineEnv = agentEnvironment(log).catch((error: unknown) => {
    log(`agents get the inherited environment: ${(error as Error).message}`);
    return {};
  });
  // safeStorage is only usable once the app is ready; the store asks it lazily, on each call.
  const secrets = createSecretStore({ file: path.join(dataDir, SECRETS_FILE), safeStorage, log });
  const baseEnv: NodeJS.ProcessEnv = { ...process.env };
  const engineSecrets = createEngineSecrets({ store: secrets, baseEnv, log });
  const engine = createEngineHost({
    // Each (re)start gets the keys as they are now; later changes follow as messages (engine-secrets.ts).
    fork: (modulePath, args, options) =>
      utilityProcess.fork(modulePath, args, { ...options, stdio: 'inherit', env: engineSecrets.forkEnv() }),
    modulePath: paths.engineEntry,
    dataDir,
    log,
  });

  let mainWindow: BrowserWindow | null = null;
  const openWindow = () => {
    mainWindow = createMainWindow(BrowserWindow, { preloadPath: paths.preloadPath, devTools: !app.isPackaged });
    mainWindow.on('closed', () => {
      mainWindow = null;
    });
  };

  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.whenReady().then(
    () => {
      denyAllPermissions(session.defaultSession);
      registerAppProtocol(protocol, { root: paths.rendererDir, engineOrigin: () => engine.origin() });
      // The window opens meanwhile; its requests wait for the engine (a quit before then leaves it unstarted).
      void engineEnv.then((env) => {
        Object.assign(baseEnv, env);
        engine.start();
      });
      registerIpc(
        ipcMain,
        createShellHandlers({
          engine: { connection: () => engine.connection(), send: (message) => engine.send(message) },
          secrets,
          secretsUpdate: () => engineSecrets.update(),
          dataDir,
          appVersion: () => app.getVersion(),
          openExternal: (url) => shell.openExternal(url),
          showItemInFolder: (target) => shell.showItemInFolder(target),
          openPath: (target) => shell.openPath(target),
          showSaveDialog: (options) => (mainWindow ? dialog.showSaveDialog(mainWindow, options) : dialog.showSaveDialog(options)),
          exportDirs: () => [userFolder('downloads'), userFolder('documents')],
          dirExists: (dir) => fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false,
        }),
      );
      openWindow();
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) openWindow();
      });
    },
    (error: unknown) => {
      process.stderr.write(`Local Arena failed to start: ${(error as Error).message}\n`);
      app.exit(1);
    },
  );

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  installGracefulQuit(app, engine, log, process);
}

/**
 * What the engine's agents need from the shell: the login shell's PATH (a Finder or menu launch inherits a bare one)
 * and, in the packaged app, the Node it ships for `node` agents (engine/runner/node-runtime.ts).
 */
async function agentEnvironment(log: (line: string) => void): Promise<Record<string, string>> {
  const resolved = await resolveLoginPath({ shell: process.env.SHELL, inherited: process.env.PATH });
  if (resolved.problem) log(`agents get the inherited PATH: ${resolved.problem}`);
  const env: Record<string, string> = { PATH: resolved.path };
  if (app.isPackaged) {
    const node = shippedNodePath(process.resourcesPath);
    if (fs.existsSync(node)) env[AGENT_NODE_ENV] = node;
    else log(`the app's Node runtime is missing (${node}); agents started as \`node\` need one on PATH`);
  }
  return env;
}

/** Some desktops have no Downloads or Documents folder; Electron then throws. */
function userFolder(name: 'downloads' | 'documents'): string {
  try {
    return app.getPath(name);
  } catch {
    return '';
  }
}

const dataDir = resolveShellDataDir(process.argv, process.env, app.getPath('appData'));
// Chromium's profile lives next to the arena database: one folder holds everything, and the single-instance lock
// (keyed on userData) is per data folder, so test runs with their own folders do not collide.
app.setPath('userData', dataDir);
// A second launch only focuses the first window; two engines on one database would fight over it.
if (app.requestSingleInstanceLock()) boot(dataDir);
else app.quit();
