// Compiles the engine (CLI, runner, protocols, model agent), the challenges and the games into a throwaway copy of
// the built layout inside node_modules/.cache — dist/, bin/arena.js, agents/bin/arena-agent, package.json — so the
// end-to-end tests run `arena` as a real child process on the current sources, never on a stale `npm run build`.
// Inside the repo's node_modules, so the compiled files still resolve the repo's dependencies.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface CompiledApp {
  root: string;
  /** bin/arena.js of the copy. */
  arena: string;
  remove(): void;
}

export function compileApp(): CompiledApp {
  const cache = path.join(ROOT, 'node_modules', '.cache');
  fs.mkdirSync(cache, { recursive: true });
  const dir = fs.mkdtempSync(path.join(cache, 'arena-app-test-'));
  const tsconfig = {
    extends: path.join(ROOT, 'tsconfig.base.json'),
    compilerOptions: { lib: ['ES2023'], types: ['node'], rootDir: ROOT, outDir: path.join(dir, 'dist'), noEmit: false, sourceMap: false },
    include: ['engine/**/*.ts', 'challenges/**/*.ts', 'games/**/*.ts'].map((glob) => path.join(ROOT, glob)),
    exclude: ['**/*.test.ts', '**/*.spec.ts'],
  };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(dir, 'tsconfig.json')], {
    cwd: ROOT,
    stdio: 'pipe',
  });
  // As scripts/build.mjs: challenge folders carry data files next to their operators.
  const challenges = path.join(ROOT, 'challenges');
  for (const entry of fs.readdirSync(challenges, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name.endsWith('.ts')) continue;
    const from = path.join(entry.parentPath, entry.name);
    const to = path.join(dir, 'dist', 'challenges', path.relative(challenges, from));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
  }
  for (const file of ['package.json', 'bin/arena.js', 'agents/bin/arena-agent']) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
  }
  fs.chmodSync(path.join(dir, 'agents/bin/arena-agent'), 0o755);
  return { root: dir, arena: path.join(dir, 'bin', 'arena.js'), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
