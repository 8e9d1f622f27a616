// The one window factory: every window gets the same locked-down webPreferences.
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import { APP_ORIGIN } from '../engine/contract/channels.js';

export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

export interface WindowOptionsInput {
  preloadPath: string;
  /** Off in packaged builds; the unpackaged app keeps DevTools for debugging. */
  devTools?: boolean;
}

/** Pure, so the security settings are unit-tested without an Electron binary. */
export function secureWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    title: 'Local Arena',
    backgroundColor: '#f6f7f9',
    // Shown on ready-to-show, so the user never sees an empty white frame.
    show: false,
    webPreferences: {
      preload: input.preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      enableWebSQL: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
      autoplayPolicy: 'user-gesture-required',
      devTools: input.devTools ?? false,
    },
  };
}

export type BrowserWindowCtor = new (options: BrowserWindowConstructorOptions) => BrowserWindow;

/** Takes the constructor as an argument so this module never loads Electron itself. */
export function createMainWindow(Ctor: BrowserWindowCtor, input: WindowOptionsInput & { url?: string }): BrowserWindow {
  const win = new Ctor(secureWindowOptions(input));
  win.once('ready-to-show', () => win.show());
  void win.loadURL(input.url ?? APP_ENTRY_URL);
  return win;
}
