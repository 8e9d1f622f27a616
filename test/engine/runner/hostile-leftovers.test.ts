// An agent fills a folder of its workspace and makes it unreadable (`chmod 000`, nested) before it plays on. Clean-up
// must still remove every byte: for a root engine (in-process launcher, also with the agent as nobody), and for an
// engine that is itself an unprivileged user (`arena run` as uid 65534), where a plain recursive removal fails and
// the files stayed on disk game after game. The honest seat's games complete, nobody faulted.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { AgentManifestSchema } from '../../../engine/contract/manifest.js';
import { launchAgent } from '../../../engine/runner/launch.js';
import { sandboxSupport, setSandboxSupportForTests } from '../../../engine/runner/sandbox.js';
import { removeWorkspace } from '../../../engine/runner/workspace-removal.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(ROOT, 'bin/arena.js');
const HONEST_DIR = path.join(ROOT, 'challenges/psi/agents/honest-exact');
const linuxWithSandbox = process.platform === 'linux' && sandboxSupport().bwrap != null;
const isRoot = process.getuid?.() === 0;
const BLOB_MB = 8;

const LEFTOVER = `import fs from 'node:fs';
const locked = process.env.ARENA_WORKSPACE + '/locked';
fs.mkdirSync(locked + '/deeper', { recursive: true });
fs.writeFileSync(locked + '/deeper/blob', Buffer.alloc(${BLOB_MB} << 20, 1));
fs.writeFileSync(locked + '/note', 'x');
fs.chmodSync(locked + '/deeper', 0);
fs.chmodSync(locked, 0);
fs.chmodSync(process.env.ARENA_WORKSPACE, 0o500);
console.log('LOCKED');
`;

let root: string;
let agentDir: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-leftovers-'));
  fs.chmodSync(root, 0o755);
  agentDir = path.join(root, 'leftover-bot');
  fs.mkdirSync(agentDir, { mode: 0o755 });
  fs.writeFileSync(path.join(agentDir, 'leftover.mjs'), LEFTOVER, { mode: 0o644 });
  const play = `node ${path.join(agentDir, 'leftover.mjs')} && exec node ${path.join(HONEST_DIR, 'agent.mjs')}`;
  fs.writeFileSync(
    path.join(agentDir, 'agent.yaml'),
    YAML.stringify({
      id: 'leftover-bot',
      name: 'Leftover bot',
      framework: 'node',
      protocol: 'specarena',
      challenges: ['psi'],
      entrypoint: { command: ['/bin/sh', '-c', play] },
    }),
    { mode: 0o644 },
  );
});

afterAll(() => {
  if (root) spawnSync('chmod', ['-R', 'u+rwx', root]);
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** Bytes under `dir`, as far as this process can see (root sees through mode 000). */
function bytesUnder(dir: string): number {
  const out = spawnSync('du', ['-sb', dir], { encoding: 'utf8' });
  return Number(out.stdout.split('\t')[0] ?? 0);
}

describe.runIf(linuxWithSandbox)('unreadable leftovers in a workspace', () => {
  // A sized tmpfs workspace (bubblewrap with --size) never puts the files on the disk: the host folder, what a
  // bubblewrap without --size, Docker and macOS write to, is forced here so its removal is what is tested.
  beforeEach(() => setSandboxSupportForTests({ ...sandboxSupport(), bwrapTmpfsSize: false }));
  afterEach(() => setSandboxSupportForTests(undefined));

  const launchOnly = async (runAs?: { uid: number; gid: number }) => {
    const manifest = AgentManifestSchema.parse({
      id: 'leftover-bot',
      name: 'Leftover bot',
      framework: 'node',
      protocol: 'specarena',
      entrypoint: { command: ['node', 'leftover.mjs'] },
    });
    const workspaceRoot = path.join(root, runAs ? 'work-nobody' : 'work-root');
    fs.mkdirSync(workspaceRoot, { recursive: true, mode: 0o755 });
    const run = await launchAgent({
      manifest,
      manifestDir: agentDir,
      workspaceRoot,
      hostEnv: { PATH: process.env.PATH },
      limits: { timeoutMs: 30_000 },
      ...(runAs ? { runAs } : {}),
    }).result;
    expect(run.stdout).toBe('LOCKED\n');
    expect(bytesUnder(run.workspace)).toBeGreaterThan(BLOB_MB << 20);
    expect(await removeWorkspace(run.workspace)).toBeNull();
    expect(fs.existsSync(run.workspace)).toBe(false);
    expect(fs.readdirSync(workspaceRoot)).toEqual([]);
  };

  it('are removed after a launch by a root engine', () => launchOnly());

  it.runIf(isRoot)('are removed after a launch by a root engine with the agent as nobody', () => launchOnly({ uid: 65534, gid: 65534 }));

  it('never reach the disk when the workspace is a sized tmpfs', async () => {
    setSandboxSupportForTests(undefined);
    if (!sandboxSupport().bwrapTmpfsSize) return;
    const manifest = AgentManifestSchema.parse({
      id: 'leftover-bot',
      name: 'Leftover bot',
      framework: 'node',
      protocol: 'specarena',
      entrypoint: { command: ['node', 'leftover.mjs'] },
    });
    const workspaceRoot = path.join(root, 'work-sized');
    fs.mkdirSync(workspaceRoot, { recursive: true, mode: 0o755 });
    const run = await launchAgent({
      manifest,
      manifestDir: agentDir,
      workspaceRoot,
      hostEnv: { PATH: process.env.PATH },
      limits: { timeoutMs: 30_000 },
    }).result;
    expect(run.stdout).toBe('LOCKED\n');
    expect(run.isolation.seat?.workspaceMb).toBeGreaterThan(BLOB_MB);
    expect(fs.readdirSync(run.workspace)).toEqual([]);
    expect(await removeWorkspace(run.workspace)).toBeNull();
  });

  it.runIf(isRoot)(
    'are removed by an engine running as uid 65534 (arena run), the games complete unfaulted',
    () => {
      const data = path.join(root, 'nobody-data');
      const home = path.join(root, 'nobody-home');
      for (const d of [data, home]) {
        fs.mkdirSync(d, { mode: 0o700 });
        fs.chownSync(d, 65534, 65534);
      }
      const specFile = path.join(root, 'leftovers.tournament.yaml');
      fs.writeFileSync(
        specFile,
        YAML.stringify({
          name: 'leftovers',
          challenge: 'psi',
          format: 'round-robin',
          games_per_pairing: 2,
          concurrency: 1,
          seed: 'leftovers-1',
          agents: [
            { manifest: path.join(agentDir, 'agent.yaml'), id: 'leftover-bot' },
            { manifest: path.join(HONEST_DIR, 'agent.yaml'), id: 'honest' },
          ],
          limits: { move_seconds: 10, game_seconds: 30 },
        }),
        { mode: 0o644 },
      );
      const run = spawnSync(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, BIN, 'run', specFile, '--data-dir', data, '--json'],
        { encoding: 'utf8', timeout: 180_000, env: { PATH: process.env.PATH, HOME: home } },
      );
      expect(run.status, run.stderr).toBe(0);
      const tournaments = path.join(data, 'tournaments');
      const [id] = fs.readdirSync(tournaments);
      const games = JSON.parse(fs.readFileSync(path.join(data, 'reports', id as string, 'report.json'), 'utf8')).games as Array<{
        termination: string;
        faulted_seats?: number[];
      }>;
      expect(games.map((g) => g.termination)).toEqual(['completed', 'completed']);
      // Every game's workspaces are gone, and with them every byte the agent locked away.
      const work = path.join(tournaments, id as string, 'work');
      const left = fs.existsSync(work) ? fs.readdirSync(work) : [];
      expect(left).toEqual([]);
      expect(fs.existsSync(work) ? bytesUnder(work) : 0).toBeLessThan(1 << 20);
    },
    200_000,
  );
});
