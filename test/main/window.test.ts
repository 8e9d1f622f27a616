import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, createMainWindow, secureWindowOptions } from '../../main/window.js';

describe('secureWindowOptions', () => {
  const options = secureWindowOptions({ preloadPath: '/app/dist/preload/index.cjs' });
  const prefs = options.webPreferences ?? {};

  it('turns on the sandbox and context isolation and keeps Node out of the page', () => {
    expect(prefs.sandbox).toBe(true);
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
  });

  it('disables webviews, insecure content and experimental features', () => {
    expect(prefs.webviewTag).toBe(false);
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.experimentalFeatures).toBe(false);
    expect(prefs.enableWebSQL).toBe(false);
    expect(prefs.navigateOnDragDrop).toBe(false);
  });

  it('uses the given preload and keeps DevTools off unless asked for', () => {
    expect(prefs.preload).toBe('/app/dist/preload/index.cjs');
    expect(prefs.devTools).toBe(false);
    expect(secureWindowOptions({ preloadPath: 'p', devTools: true }).webPreferences?.devTools).toBe(true);
  });

  it('waits for ready-to-show instead of flashing an empty window', () => {
    expect(options.show).toBe(false);
  });

  it('returns a fresh object each time, so callers cannot weaken the shared defaults', () => {
    const a = secureWindowOptions({ preloadPath: 'p' });
    if (a.webPreferences) a.webPreferences.sandbox = false;
    expect(secureWindowOptions({ preloadPath: 'p' }).webPreferences?.sandbox).toBe(true);
  });
});

describe('createMainWindow', () => {
  it('constructs the window with the secure options and loads the app protocol entry', () => {
    const calls: { options?: unknown; url?: string; once?: string } = {};
    class FakeWindow {
      constructor(options: unknown) {
        calls.options = options;
      }
      once(event: string) {
        calls.once = event;
      }
      loadURL(url: string) {
        calls.url = url;
        return Promise.resolve();
      }
    }
    createMainWindow(FakeWindow as never, { preloadPath: '/p.cjs' });
    expect(calls.options).toEqual(secureWindowOptions({ preloadPath: '/p.cjs' }));
    expect(calls.url).toBe(APP_ENTRY_URL);
    expect(APP_ENTRY_URL).toBe('app://arena/index.html');
    expect(calls.once).toBe('ready-to-show');
  });
});
