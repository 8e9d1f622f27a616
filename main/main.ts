// Electron main: lifecycle only. Start-up order: single-instance lock → protocol and security → engine → IPC → window.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, ipcMain, protocol, session, shell, utilityProcess } from 'electron';
import { createEngineHost } from './engine-host.js';
import { registerIpc } from './ipc.js';
import { resolveShellDataDir, shellPaths } from './paths.js';
import { APP_SCHEME_PRIVILEGES, registerAppProtocol } from './protocol.js';
import { denyAllPermissions, hardenWebContents } from './security.js';
import { createMainWindow } from './window.js';

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const paths = shellPaths(distDir);

function boot(dataDir: string): void {
  app.enableSandbox();
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

  const openExternal = (url: string) => shell.openExternal(url);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, openExternal));

  const engine = createEngineHost({
    fork: (modulePath, args, options) => utilityProcess.fork(modulePath, args, { ...options, stdio: 'inherit' }),
    modulePath: paths.engineEntry,
    dataDir,
    log: (line) => process.stderr.write(`[engine-host] ${line}\n`),
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
      engine.start();
      registerIpc(ipcMain, {
        engineConnection: () => engine.connection(),
        shellOpenExternal: async ({ url }) => {
          await shell.openExternal(url);
          return undefined;
        },
        shellRevealInFolder: ({ path: target }) => {
          if (!path.isAbsolute(target)) throw new Error('revealInFolder needs an absolute path');
          shell.showItemInFolder(target);
          return undefined;
        },
        appVersion: () => app.getVersion(),
        // Interim until the shell branch lands its dialog and keychain handlers.
        shellSaveFile: () => ({ saved: false, path: null }),
        shellRevealDataFolder: () => undefined,
        secretsList: () => ({ available: false, names: [] }),
        secretsSet: () => {
          throw new Error('API keys cannot be stored yet');
        },
        secretsDelete: () => ({ available: false, names: [] }),
      });
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
  app.on('before-quit', () => engine.stop());
}

const dataDir = resolveShellDataDir(process.argv, process.env, app.getPath('appData'));
// Chromium's profile lives next to the arena database: one folder holds everything, and the single-instance lock
// (keyed on userData) is per data folder, so test runs with their own folders do not collide.
app.setPath('userData', dataDir);
// A second launch only focuses the first window; two engines on one database would fight over it.
if (app.requestSingleInstanceLock()) boot(dataDir);
else app.quit();
