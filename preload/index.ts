// Sandboxed preload: exposes the allow-listed `window.arena` API and nothing else (bundled to CommonJS for the sandbox).
import { contextBridge, ipcRenderer } from 'electron';
import { createArenaApi } from './arena-api.js';

contextBridge.exposeInMainWorld(
  'arena',
  createArenaApi((channel, ...args) => ipcRenderer.invoke(channel, ...args)),
);
