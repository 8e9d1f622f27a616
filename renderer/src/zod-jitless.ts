// Imported first by main.tsx, before any schema is built: zod's JIT probes `new Function` while constructing object
// schemas, and under our CSP (no 'unsafe-eval') Chromium logs that probe as a console error even though zod catches it.
import { z } from 'zod';

z.config({ jitless: true });
