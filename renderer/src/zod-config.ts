// Imported first by main.tsx, before any contract module builds its schemas: zod's JIT probes `new Function`,
// which the app's CSP (no 'unsafe-eval') refuses and Chromium logs as a console error on every page.
import { z } from 'zod';

z.config({ jitless: true });
