// Agents whose command names a file outside their folder — `../…/proc/self/environ` (the exporting process's
// environment) and a symlink to another data directory's key — play real sandboxed games. The run manifest records
// no entry file for them and says why; `arena export --bundle --with-files` carries only their agent.yaml; the honest
// seat's games complete unblamed. A bundle whose member names climb out is refused by verify.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { type RunningEngine, startEngine } from '../../../engine/app.js';
import { sandboxSupport } from '../../../engine/runner/sandbox.js';
import { bundleMemberName, readTarGz, verifyBundle, writeTarGz } from '../../../engine/tournaments/bundle/bundle.js';
import { ENTRY_OUTSIDE } from '../../../engine/tournaments/spec-file.js';
import { ROOT, tempDir } from './helpers.js';

const HONEST_DIR = path.join(ROOT, 'challenges/psi/agents/honest-exact');
const linuxWithSandbox = process.platform === 'linux' && sandboxSupport().bwrap != null;
const ENV_MARKER = 'bundle-escape-marker-31337';
const KEY_BYTES = 'another-data-dirs-rng-key-bytes';

let dir: string;
let engine: RunningEngine;
const agentYaml = (id: string) => path.join(dir, 'agents', id, 'agent.yaml');

/** An agent that plays as honest-exact, its command naming `extra` (relative to its folder) as a file argument. */
function writeAgent(id: string, extra: string): void {
  const folder = path.join(dir, 'agents', id);
  fs.mkdirSync(folder, { recursive: true });
  const play = `exec node ${path.join(HONEST_DIR, 'agent.mjs')}`;
  fs.writeFileSync(
    agentYaml(id),
    YAML.stringify({
      id,
      name: id,
      framework: 'node',
      protocol: 'specarena',
      challenges: ['psi'],
      entrypoint: { command: ['/bin/sh', '-c', play, extra] },
    }),
  );
}

beforeAll(async () => {
  dir = tempDir('arena-hostile-bundle-');
  process.env.BUNDLE_ESCAPE = ENV_MARKER;
  const otherData = path.join(dir, 'old-data', 'secrets');
  fs.mkdirSync(otherData, { recursive: true });
  fs.writeFileSync(path.join(otherData, 'rng.key'), KEY_BYTES);
  writeAgent('proc-bot', `${'../'.repeat(40)}proc/self/environ`);
  writeAgent('link-bot', 'key.txt');
  fs.symlinkSync(path.join(otherData, 'rng.key'), path.join(dir, 'agents', 'link-bot', 'key.txt'));
  engine = await startEngine({ dataDir: path.join(dir, 'data'), port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
});
afterAll(async () => {
  delete process.env.BUNDLE_ESCAPE;
  await engine?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.runIf(linuxWithSandbox)('entry files that leave the agent folder', () => {
  it('are not recorded, hashed or bundled; the games complete and nobody is faulted', async () => {
    const t = engine.tournaments.create(
      {
        name: 'bundle escape',
        challenge: 'psi',
        format: 'round-robin',
        games_per_pairing: 1,
        concurrency: 1,
        seed: 'bundle-escape-1',
        agents: [
          { manifest: agentYaml('proc-bot'), id: 'proc-bot' },
          { manifest: agentYaml('link-bot'), id: 'link-bot' },
          { manifest: path.join(HONEST_DIR, 'agent.yaml'), id: 'honest' },
        ],
        limits: { move_seconds: 10, game_seconds: 30 },
      },
      ROOT,
    );
    const outcome = await engine.tournaments.start(t.id);
    expect(outcome.status).toBe('finished');
    const games = engine.store.tournaments.games(t.id);
    expect(games.map((g) => [g.termination, g.faultedSeats])).toEqual(games.map(() => ['completed', []]));

    const recorded = engine.store.tournaments.get(t.id)?.manifest;
    const agents = (recorded as { agents: Array<{ id: string; entry_file: string | null; entry_file_skipped?: string }> }).agents;
    expect(agents.map((a) => [a.id, a.entry_file, a.entry_file_skipped ?? null])).toEqual([
      ['proc-bot', null, ENTRY_OUTSIDE],
      ['link-bot', null, ENTRY_OUTSIDE],
      ['honest', 'agent.mjs', null],
    ]);

    const bundle = await engine.tournaments.bundle(t.id, { withFiles: true });
    const members = readTarGz(bundle);
    expect([...members.keys()].filter((name) => name.startsWith('agents/')).sort()).toEqual([
      'agents/honest/agent.mjs',
      'agents/honest/agent.yaml',
      'agents/link-bot/agent.yaml',
      'agents/proc-bot/agent.yaml',
    ]);
    for (const [name, data] of members) {
      expect(bundleMemberName(name)).toBe(name);
      expect(data.toString('latin1'), name).not.toContain(ENV_MARKER);
      expect(data.toString('latin1'), name).not.toContain(KEY_BYTES);
    }
    expect(verifyBundle(bundle)).toMatchObject({ ok: true, problems: [] });
  }, 120_000);
});

describe('bundle member names', () => {
  it('are normalised, and verify refuses a bundle whose names climb out', () => {
    expect(['a/./b', 'a//b', 'a\\b'].map(bundleMemberName)).toEqual(['a/b', 'a/b', 'a/b']);
    expect(['../x', 'agents/x/../../y', '/etc/passwd', 'C:/x', '\\\\host\\x', ''].map(bundleMemberName)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    for (const bad of ['../../evil.sh', '/tmp/evil', 'agents/a/../../../evil']) {
      const archive = writeTarGz([
        { path: 'bundle.json', data: Buffer.from('{}') },
        { path: bad, data: Buffer.from('x') },
      ]);
      const result = verifyBundle(archive);
      expect(result.ok).toBe(false);
      expect(result.problems).toEqual([
        `${bad}: member name is not a plain relative path (absolute, '..' or unnormalised); the bundle is refused`,
      ]);
    }
  });
});
