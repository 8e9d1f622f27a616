// `arena agents list` and `arena agents validate` as real processes (bin/arena.js over dist/): list goes past an
// invalid manifest, naming it with its problems, and both exit 2 (bad input, as the README promises) when any
// manifest is invalid.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(ROOT, 'bin/arena.js');
const PSI_AGENTS = path.join(ROOT, 'challenges/psi/agents');
let dir: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/cli/commands/agents.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-agents-cli-'));
}, 250_000);
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const arena = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ARENA_DATA_DIR: '' } });

/** A folder of the shipped PSI agents with one broken manifest sorted first ("aaa-broken") and one last. */
function agentsWithBroken(): string {
  const root = fs.mkdtempSync(path.join(dir, 'agents-'));
  for (const name of fs.readdirSync(PSI_AGENTS)) {
    if (fs.existsSync(path.join(PSI_AGENTS, name, 'agent.yaml')))
      fs.cpSync(path.join(PSI_AGENTS, name), path.join(root, name), { recursive: true });
  }
  fs.mkdirSync(path.join(root, 'aaa-broken'));
  fs.writeFileSync(path.join(root, 'aaa-broken', 'agent.yaml'), 'id: aaa-broken\nname: Broken\nframework: django\n');
  fs.mkdirSync(path.join(root, 'zzz-not-yaml'));
  fs.writeFileSync(path.join(root, 'zzz-not-yaml', 'agent.yaml'), 'id: [unclosed\n');
  return root;
}

it('agents list lists every valid agent past invalid manifests, marks each invalid one, and exits 2', () => {
  const root = agentsWithBroken();
  const shipped = fs.readdirSync(PSI_AGENTS).filter((n) => fs.existsSync(path.join(PSI_AGENTS, n, 'agent.yaml')));
  expect(shipped.length).toBeGreaterThanOrEqual(3);
  const text = arena('agents', 'list', '--agents', root);
  expect(text.status).toBe(2);
  for (const id of shipped) expect(text.stdout).toMatch(new RegExp(`^${id} {2}\\S+ {2}specarena`, 'm'));
  expect(text.stdout).toMatch(/^invalid {2}.*aaa-broken\/agent\.yaml\n {2}framework: /m);
  expect(text.stdout).toMatch(/^invalid {2}.*zzz-not-yaml\/agent\.yaml\n {2}/m);
  expect(text.stderr).toContain('2 invalid agent manifests');

  const json = arena('agents', 'list', '--agents', root, '--json');
  expect(json.status).toBe(2);
  const out = JSON.parse(json.stdout) as { agents: Array<{ id: string }>; invalid: Array<{ file: string; problems: string[] }> };
  expect(out.agents.map((a) => a.id).sort()).toEqual([...shipped].sort());
  expect(out.invalid.map((i) => path.basename(path.dirname(i.file)))).toEqual(['aaa-broken', 'zzz-not-yaml']);
  expect(out.invalid.every((i) => i.problems.length > 0)).toBe(true);

  // Without the broken ones: everything valid, exit 0.
  fs.rmSync(path.join(root, 'aaa-broken'), { recursive: true });
  fs.rmSync(path.join(root, 'zzz-not-yaml'), { recursive: true });
  expect(arena('agents', 'list', '--agents', root).status).toBe(0);
}, 180_000);

it('agents validate exits 2 for an invalid manifest, 0 for valid ones', () => {
  const root = agentsWithBroken();
  const bad = arena('agents', 'validate', root);
  expect(bad.status).toBe(2);
  expect(bad.stdout).toMatch(/^ok {7}honest-exact/m);
  expect(bad.stdout).toMatch(/^invalid {2}.*aaa-broken\/agent\.yaml/m);
  expect(arena('agents', 'validate', path.join(root, 'aaa-broken')).status).toBe(2);
  expect(arena('agents', 'validate', path.join(root, 'honest-exact')).status).toBe(0);
  expect(arena('agents', 'validate', path.join(root, 'no-such-folder')).status).toBe(2);
}, 180_000);
