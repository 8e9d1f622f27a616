// Build: compile engine, challenges, main and preload with tsc; copy challenge metadata; bundle the renderer with vite.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildForwarder } from './build-native.mjs';

const root = path.resolve(import.meta.dirname, '..');
const run = (bin, args) =>
  execFileSync(process.execPath, [path.join(root, 'node_modules', ...bin), ...args], { cwd: root, stdio: 'inherit' });

fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
run(['typescript', 'bin', 'tsc'], ['-p', 'tsconfig.build.json']);
// A sandboxed preload must be one CommonJS file, so it is bundled rather than compiled.
run(['vite', 'bin', 'vite.js'], ['build', '--config', 'vite.preload.config.ts', '--logLevel', 'warn']);

// Challenge folders carry data files next to their operators (metadata, agent manifests, fixtures).
const src = path.join(root, 'challenges');
const out = path.join(root, 'dist', 'challenges');
for (const entry of fs.readdirSync(src, { withFileTypes: true, recursive: true })) {
  // Board views (.tsx) are bundled into the renderer, not copied.
  if (!entry.isFile() || /\.tsx?$/.test(entry.name)) continue;
  const from = path.join(entry.parentPath, entry.name);
  const to = path.join(out, path.relative(src, from));
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
}

// The sandbox's endpoint forwarder; socat stands in where it cannot be built.
const forwarderProblem = buildForwarder(path.join(root, 'dist', 'native', 'arena-forward'));
if (forwarderProblem && process.platform === 'linux')
  process.stderr.write(`build: the sandbox's forwarder was not built (${forwarderProblem}); socat will serve sandboxed endpoints\n`);

// In the packaged app the root package.json is inside the archive, which the agents' Node cannot read: this one tells
// it that the unpacked dist/*.js the app's launchers run (arena-agent model) are ES modules.
fs.writeFileSync(path.join(root, 'dist', 'package.json'), `${JSON.stringify({ type: 'module', private: true })}\n`);

if (fs.existsSync(path.join(root, 'renderer', 'index.html'))) {
  run(['vite', 'bin', 'vite.js'], ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
}
