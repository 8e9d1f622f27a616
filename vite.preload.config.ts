// Preload bundle: a sandboxed preload can only be one CommonJS script (its require() reaches just a few built-ins),
// so preload/index.ts and the contract it imports are bundled into dist/preload/index.cjs.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: fileURLToPath(new URL('./dist/preload', import.meta.url)),
    // tsc has already written dist/preload/*.js; keep them.
    emptyOutDir: false,
    target: 'chrome120',
    minify: false,
    sourcemap: false,
    reportCompressedSize: false,
    lib: { entry: fileURLToPath(new URL('./preload/index.ts', import.meta.url)), formats: ['cjs'], fileName: () => 'index.cjs' },
    rolldownOptions: { external: ['electron'] },
  },
});
