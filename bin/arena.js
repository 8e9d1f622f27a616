#!/usr/bin/env node
// Runs the compiled CLI (npm ci builds it through the prepare script).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/engine/cli/index.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('arena: the engine is not built yet. Run "npm run build" (npm install/ci does it for you).\n');
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
