// Imported first by main.tsx, before any module can parse with zod. The CSP forbids eval: without `jitless`, zod
// probes `new Function` on its first object parse and the browser reports a CSP violation in the console.
import { z } from 'zod';

z.config({ jitless: true });
