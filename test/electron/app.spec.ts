// The desktop shell with production security settings: window flags, the preload's allow-list, navigation and
// window-opening blocked, and the utility-process engine answering. Skipped without the Electron binary.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ElectronApplication, _electron as electron, expect, type Page, test } from '@playwright/test';
import { ARENA_API_METHODS } from '../../engine/contract/channels.js';
import { ArenaApp } from '../e2e/support/arena-app.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const electronDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
// The electron package writes path.txt only after downloading its binary.
const hasBinary = fs.existsSync(path.join(electronDir, 'path.txt'));

test.skip(!hasBinary, 'Electron binary not installed');

test.describe('Local Arena desktop shell', () => {
  let app: ElectronApplication;
  let window: Page;
  let dataDir: string;

  test.beforeAll(async () => {
    for (const built of ['dist/main/main.js', 'dist/preload/index.cjs', 'dist/engine/entry.js', 'dist/renderer/index.html']) {
      if (!fs.existsSync(path.join(ROOT, built))) throw new Error(`${built} is missing: run "npm run build" first.`);
    }
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-electron-'));
    app = await electron.launch({ args: [ROOT], cwd: ROOT, env: { ...process.env, ARENA_DATA_DIR: dataDir } });
    // Links must never reach the real browser during tests.
    await app.evaluate(({ shell }) => {
      const opened: string[] = [];
      (globalThis as { __opened?: string[] }).__opened = opened;
      shell.openExternal = async (url: string) => {
        opened.push(url);
      };
    });
    window = await app.firstWindow();
  });

  test.afterAll(async () => {
    await app?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('loads the UI from app://arena/ and connects to its engine', async () => {
    await new ArenaApp(window).waitLoaded();
    expect(window.url()).toMatch(/^app:\/\/arena\//);
    const baseUrl = await window.evaluate(async () => {
      const api = (globalThis as { arena?: { connection(): Promise<{ baseUrl: string }> } }).arena;
      return (await api?.connection())?.baseUrl;
    });
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test('runs the window with sandbox, context isolation and no Node', async () => {
    const prefs = await app.evaluate(({ BrowserWindow }) => {
      const win = BrowserWindow.getAllWindows()[0];
      // Undocumented but long-standing (Electron's own specs use it); absent from electron.d.ts.
      const contents = win?.webContents as unknown as { getLastWebPreferences?: () => Record<string, unknown> } | undefined;
      return contents?.getLastWebPreferences?.() ?? null;
    });
    expect(prefs).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, webviewTag: false });
    const globals = await window.evaluate(() => ({
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
      module: typeof (globalThis as { module?: unknown }).module,
    }));
    expect(globals).toEqual({ require: 'undefined', process: 'undefined', module: 'undefined' });
  });

  test('exposes exactly the allow-listed preload API', async () => {
    const keys = await window.evaluate(() => Object.keys((globalThis as { arena?: object }).arena ?? {}).sort());
    expect(keys).toEqual([...ARENA_API_METHODS]);
  });

  test('blocks navigation away from the app and new windows, sending web links to the browser', async () => {
    const before = window.url();
    await window.evaluate(() => {
      (globalThis as unknown as { location: { href: string } }).location.href = 'https://example.org/navigate';
    });
    await window.waitForTimeout(500);
    expect(window.url()).toBe(before);
    const popup = await window.evaluate(
      () => (globalThis as unknown as { open(url: string): unknown }).open('https://example.org/popup') === null,
    );
    expect(popup).toBe(true);
    expect(app.windows()).toHaveLength(1);
    const opened = await app.evaluate(() => (globalThis as { __opened?: string[] }).__opened ?? []);
    expect(opened).toEqual(['https://example.org/navigate', 'https://example.org/popup']);
  });

  test('saves an export where the (stubbed) save dialog points, through the preload API', async () => {
    const target = path.join(dataDir, 'export.jsonl');
    await app.evaluate(({ dialog }, filePath) => {
      dialog.showSaveDialog = (async () => ({ canceled: false, filePath })) as typeof dialog.showSaveDialog;
    }, target);
    const result = await window.evaluate(async () => {
      const api = (globalThis as { arena?: { saveFile(r: unknown): Promise<unknown> } }).arena;
      return api?.saveFile({ suggestedName: 'games.jsonl', content: '{"n":1}\n', filter: { name: 'JSON Lines', extensions: ['jsonl'] } });
    });
    expect(result).toEqual({ saved: true, path: target });
    expect(fs.readFileSync(target, 'utf8')).toBe('{"n":1}\n');
  });

  test('shows the keychain state on the Settings page, over the real IPC channel', async () => {
    await window.evaluate(() => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = '#/settings';
    });
    const keys = window.getByRole('region', { name: 'API keys' });
    // Which one depends on the desktop session (a Linux CI display has no secret service).
    await expect(keys.getByText(/^(Stored in the OS keychain|Keychain unavailable)$/)).toBeVisible();
  });
});
