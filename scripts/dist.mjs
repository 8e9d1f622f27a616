// `npm run dist` (current platform) and `npm run dist:<os>`: package the desktop app with electron-builder.
// Release machines only (see "Packaging" in README.md): electron-builder downloads Electron and its tools, and it
// rebuilds better-sqlite3 for Electron's ABI *inside this checkout's node_modules*, after which plain Node (the CLI,
// arena serve, the tests) cannot load it until `npm run rebuild:node`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { distTargets, prepareNodeRuntime } from './node-runtime.mjs';

const root = path.resolve(import.meta.dirname, '..');

if (process.env.CI) {
  process.stderr.write(
    'npm run dist: refusing to package in CI. Packaging runs only on a networked release machine (README, "Packaging").\n',
  );
  process.exit(1);
}
const missing = ['dist/main/main.js', 'dist/preload/index.cjs', 'dist/engine/entry.js', 'dist/renderer/index.html'].filter(
  (file) => !fs.existsSync(path.join(root, file)),
);
if (missing.length > 0) {
  process.stderr.write(`npm run dist: ${missing.join(', ')} missing. Run "npm run build" first.\n`);
  process.exit(1);
}

// The Node the app ships for its agents, per packaged platform and arch (scripts/node-runtime.mjs).
try {
  for (const target of distTargets(process.argv.slice(2))) {
    const shipped = prepareNodeRuntime(root, target);
    process.stderr.write(`npm run dist: agents' Node for ${target}: ${shipped.package} (${shipped.version}, sha256 ${shipped.sha256})\n`);
  }
} catch (error) {
  process.stderr.write(`npm run dist: ${error.message}\n`);
  process.exit(1);
}

// Never publish from here: releases are uploaded by hand after the packaged app has been started once.
const args = [path.join(root, 'node_modules', 'electron-builder', 'cli.js'), ...process.argv.slice(2), '--publish', 'never'];
const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
child.on('exit', (code, signal) => {
  process.stderr.write(
    '\nnode_modules/better-sqlite3 is now built for Electron. Run "npm run rebuild:node" before using arena or the tests here.\n',
  );
  process.exitCode = code ?? (signal ? 1 : 0);
});
