// The CLI end to end, as a researcher uses it: the shipped example runs from an unrelated working directory, a second
// run with one agent changed is compared with `arena compare`, and `arena export --bundle` / `arena verify` pass on a
// fresh bundle and fail naming the file when one byte of a game record changes.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { readTarGz, writeTarGz } from '../../../engine/tournaments/bundle/bundle.js';
import { pythonCsv } from '../../support/csv.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(ROOT, 'bin/arena.js');
let dir: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist/engine/tournaments/bundle/bundle.js')))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-audit-cli-'));
}, 250_000);
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const arena = (args: string[], cwd: string) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ARENA_DATA_DIR: '' } });

function runId(stdout: string): string {
  const finished = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { event: string; tournament_id: string })
    .find((e) => e.event === 'finished');
  if (!finished) throw new Error(`no finished event in:\n${stdout}`);
  return finished.tournament_id;
}

it('runs the example from any folder, compares a changed run, and verifies its bundle', async () => {
  const data = path.join(dir, 'data');
  const elsewhere = fs.mkdtempSync(path.join(dir, 'cwd-'));
  const example = path.join(ROOT, 'examples/quickstart.tournament.yaml');
  const a = arena(['run', example, '--data-dir', data, '--json'], elsewhere);
  expect(a.stderr).toBe('');
  expect(a.status).toBe(0);
  const idA = runId(a.stdout);

  // Run B: the same definition and seed, with greedy-overclaim's id now played by another manifest.
  const raw = YAML.parse(fs.readFileSync(example, 'utf8'));
  raw.name = 'PSI quickstart, greedy changed';
  raw.agents = raw.agents.map((agent: { manifest: string; id: string }) => ({
    ...agent,
    manifest: path.resolve(
      path.dirname(example),
      agent.id === 'greedy-overclaim' ? '../challenges/psi/agents/cautious-minimal/agent.yaml' : agent.manifest,
    ),
  }));
  const specB = path.join(elsewhere, 'changed.tournament.yaml');
  fs.writeFileSync(specB, YAML.stringify(raw));
  const b = arena(['run', specB, '--data-dir', data, '--json'], ROOT);
  expect(b.status).toBe(0);
  const idB = runId(b.stdout);

  const out = path.join(dir, 'compare');
  const cmp = arena(['compare', idA, idB, '--data-dir', data, '--out', out], elsewhere);
  expect(cmp.status).toBe(0);
  expect(cmp.stdout).toMatch(/^# Comparison: PSI quickstart → PSI quickstart, greedy changed/);
  expect(cmp.stdout).toContain('| greedy-overclaim | yes |');
  expect(cmp.stdout).toContain('| honest-exact | no |');
  const csv = pythonCsv(path.join(out, 'compare.csv'));
  expect(csv.rows.map((r) => r.agent).sort()).toEqual(['cautious-minimal', 'greedy-overclaim', 'honest-exact']);
  // Same seed, same schedule: every game of each agent pairs up (4 per opponent, 2 opponents).
  for (const row of csv.rows) expect(row.paired_games).toBe('8');
  const json = JSON.parse(fs.readFileSync(path.join(out, 'compare.json'), 'utf8'));
  expect(json.agents.find((x: { agent: string }) => x.agent === 'greedy-overclaim').changed).toBe(true);
  // Reports can be compared without the database too (the report folders).
  const byFolder = arena(['compare', path.join(data, 'reports', idA), path.join(data, 'reports', idB), '--json'], elsewhere);
  expect(JSON.parse(byFolder.stdout)).toEqual(json);

  const bundle = path.join(dir, 'a.bundle.tar.gz');
  const exp = arena(['export', '--bundle', idA, '--data-dir', data, '--out', bundle, '--with-files'], elsewhere);
  expect(exp.status).toBe(0);
  const ok = arena(['verify', bundle], elsewhere);
  expect(ok.stdout).toMatch(/verified: /);
  expect(ok.status).toBe(0);

  const files = readTarGz(fs.readFileSync(bundle));
  const events = Buffer.from(files.get('reports/events.jsonl') as Buffer);
  const at = Math.floor(events.length / 3);
  events[at] = (events[at] as number) ^ 0x01;
  files.set('reports/events.jsonl', events);
  const bad = path.join(dir, 'tampered.bundle.tar.gz');
  fs.writeFileSync(bad, writeTarGz([...files].map(([p, d]) => ({ path: p, data: d }))));
  const fail = arena(['verify', bad], elsewhere);
  expect(fail.status).toBe(1);
  expect(fail.stdout).toMatch(/^FAIL {2}reports\/events\.jsonl: content changed/m);

  // The bundle names no folder of this machine.
  for (const [name, content] of readTarGz(fs.readFileSync(bundle))) {
    if (name.startsWith('agents/')) continue;
    for (const local of [os.tmpdir(), os.homedir(), ROOT])
      expect({ name, leaks: content.toString('utf8').includes(local) }).toEqual({ name, leaks: false });
  }
}, 200_000);
