// Renderer bundle: served by the engine at / (browser mode) and by app://arena/ (Electron), hence relative asset URLs.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // Electron 41 ships Chromium 146; the system Chromium used by the e2e tests is newer.
    target: 'chrome120',
    // The polyfill would be an inline script, which the CSP forbids; Chromium has native modulepreload.
    modulePreload: { polyfill: false },
    sourcemap: true,
    reportCompressedSize: false,
  },
  // The contract lives in engine/contract, one level up.
  server: { fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] } },
});
