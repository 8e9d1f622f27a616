import { defineConfig } from 'vitest/config';
import { scaled } from './test/support/slowness.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // better-sqlite3 is kept out of worker threads; two cores, so two forks.
    pool: 'forks',
    maxWorkers: 2,
    // Widened on a machine that is busy when the run starts (see slowness.ts); tests wait on events, not on these.
    testTimeout: scaled(20_000),
    hookTimeout: scaled(20_000),
  },
});
