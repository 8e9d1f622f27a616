// The README's synopsis against the real CLI (spawned from bin/arena.js): every command whose --help takes --data-dir
// shows it in the synopsis too (the `arena match` line once did not, and the documented governance command then stored
// its match where the UI was not looking), every command answers --help, and the governance page's command, run as
// written with its --data-dir, stores the match in that folder, where an engine serving it lists it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_PREFIX } from '../../../engine/contract/admin.js';
import { makeTempDataDir, startTestServer } from '../../support/server.js';
import { scaled } from '../../support/slowness.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(ROOT, 'bin/arena.js');
const COMMANDS = [
  'serve',
  'run',
  'worker',
  'workers',
  'compare',
  'models',
  'replay',
  'export',
  'verify',
  'match',
  'agents',
  'scenarios',
  'clawarena',
  'scoring',
];
let dir: string;

const arena = (args: string[], cwd = ROOT) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ARENA_DATA_DIR: '' } });

beforeAll(() => {
  dir = makeTempDataDir('arena-synopsis-');
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The README's synopsis, one entry per `arena <command> …` form (a line may hold two). */
function synopsis(): string[] {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = /## The command line[\s\S]*?```text\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const forms: string[] = [];
  // "arena run <file> | --resume <id> [--data-dir DIR]" is one form with two alternatives; "a | arena b" are two.
  for (const part of block.split('\n').flatMap((line) => line.split(' | ')))
    if (part.startsWith('arena ') || forms.length === 0) forms.push(part);
    else forms[forms.length - 1] += ` | ${part}`;
  return forms;
}

it(
  'every command answers --help, and the synopsis shows --data-dir wherever the command takes it',
  () => {
    const forms = synopsis();
    expect(forms.length).toBeGreaterThan(10);
    for (const command of COMMANDS) {
      const help = arena([command, '--help']);
      expect(help.status, `arena ${command} --help: ${help.stderr}`).toBe(0);
      expect(help.stdout).toMatch(/Usage: arena /);
      const mine = forms.filter((form) => form.startsWith(`arena ${command} `));
      expect(mine.length, `arena ${command} is in the README's synopsis`).toBeGreaterThan(0);
      if (help.stdout.includes('--data-dir'))
        expect(
          mine.some((form) => form.includes('--data-dir')),
          `README synopsis of arena ${command} shows --data-dir`,
        ).toBe(true);
    }
    expect(arena(['match', '--help']).stdout).toMatch(/--data-dir DIR\s+database for the report browser/);
  },
  scaled(300_000),
);

it(
  "the governance page's command stores its match in the --data-dir it names, where the UI's engine finds it",
  async () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs/governance.md'), 'utf8');
    const command = /```sh\n(node bin\/arena\.js match [\s\S]*?)\n```/.exec(doc)?.[1];
    expect(command).toBeDefined();
    const args = (command as string)
      .replace(/\\\n\s*/g, ' ')
      .trim()
      .split(/\s+/)
      .slice(2);
    const flag = (name: string) => args[args.indexOf(name) + 1] as string;
    expect(flag('--data-dir')).toBe('.arena-quickstart');
    // As written, but with its two folders inside this test's own folder.
    const data = path.join(dir, 'data');
    args[args.indexOf('--data-dir') + 1] = data;
    args[args.indexOf('--out') + 1] = path.join(dir, 'runs');
    const run = arena([...args, '--json']);
    expect(run.status, run.stderr).toBe(0);
    const finished = JSON.parse(run.stdout.trim().split('\n').at(-1) as string) as { event: string; match_id: string };
    expect(finished.event).toBe('match_finished');

    const server = await startTestServer({ dataDir: data });
    try {
      const res = await fetch(`${server.url}${ADMIN_PREFIX}/governance/matches`, { headers: { authorization: `Bearer ${server.token}` } });
      expect(res.status).toBe(200);
      expect(JSON.stringify(await res.json())).toContain(finished.match_id);
    } finally {
      await server.close();
    }
  },
  scaled(180_000),
);
