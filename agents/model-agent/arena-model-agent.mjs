#!/usr/bin/env node
// Launcher of the model agent by path: runs the compiled program from dist/ (built by `npm run build`, which npm install
// runs) as `node <path>/arena-model-agent.mjs --config model.yaml`. Manifests had better say
// `arena-agent model --config model.yaml` (agents/bin/arena-agent), which needs no repository path.
import { existsSync } from 'node:fs';

const entry = new URL('../../dist/engine/model-agent/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('model-agent: the engine is not built yet. Run "npm run build" (npm install/ci does it for you).\n');
  process.exit(1);
}
const { runAndExit } = await import(entry.href);
await runAndExit(process.argv.slice(2));
