// `npm start` and `npm run dist` as real processes. start.mjs runs from a copy inside a temporary project whose
// `arena` CLI and Electron CLI are stand-ins that print how they were called, so nothing opens a browser or a window.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ECHO =
  "process.stdout.write(JSON.stringify({ who: process.argv[1].split(/[\\\\/]/).slice(-2).join('/'), args: process.argv.slice(2) })); process.exitCode = Number(process.env.FAKE_EXIT ?? 0);\n";

let project: string;
beforeEach(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-start-'));
  fs.mkdirSync(path.join(project, 'scripts'));
  fs.copyFileSync(path.join(ROOT, 'scripts', 'start.mjs'), path.join(project, 'scripts', 'start.mjs'));
  fs.mkdirSync(path.join(project, 'bin'));
  fs.writeFileSync(path.join(project, 'bin', 'arena.js'), ECHO);
  fs.mkdirSync(path.join(project, 'node_modules', 'electron'), { recursive: true });
  fs.writeFileSync(path.join(project, 'node_modules', 'electron', 'cli.js'), ECHO);
});
afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

function start(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [path.join(project, 'scripts', 'start.mjs'), ...args], {
    cwd: project,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 15_000,
  });
  return { code: result.status, stderr: result.stderr, launched: JSON.parse(result.stdout || 'null') };
}

describe('npm start', () => {
  it('without the Electron binary, says so and falls back to arena serve --open with the same arguments', () => {
    const { code, stderr, launched } = start(['--data-dir', 'somewhere']);
    expect(code).toBe(0);
    expect(stderr).toContain('Electron binary not installed: serving the UI to your browser instead (arena serve --open).');
    expect(launched).toEqual({ who: 'bin/arena.js', args: ['serve', '--open', '--data-dir', 'somewhere'] });
  });

  it('with the Electron binary, opens the desktop app', () => {
    fs.writeFileSync(path.join(project, 'node_modules', 'electron', 'path.txt'), 'electron');
    const { code, stderr, launched } = start(['--data-dir', 'somewhere']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(launched).toEqual({ who: 'electron/cli.js', args: ['.', '--data-dir', 'somewhere'] });
  });

  it('passes on the exit code of what it started', () => {
    expect(start([], { FAKE_EXIT: '3' }).code).toBe(3);
  });
});

describe('npm run dist', () => {
  it('refuses to package in CI', () => {
    const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'dist.mjs')], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true' },
      timeout: 15_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('refusing to package in CI');
  });
});
