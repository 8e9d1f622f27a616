// A laptop with no Node installed: the system's `node` is hidden (a bind mount over it in a private mount namespace),
// PATH holds only /usr/bin and /bin, and the engine runs from a copy of Node in a folder that is on no PATH — as the
// desktop app's engine does with the Node it ships. The shipped Node baselines must still play normally, on the
// engine's runtime, and the app's launchers (`arena-agent`) must start; the run manifest names that runtime and PATH.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ARENA = path.join(ROOT, 'bin', 'arena.js');
const BARE_PATH = '/usr/bin:/bin';
const SYSTEM_NODES = ['/usr/bin/node', '/bin/node'];

/** Hiding a system node takes a mount namespace (root here and in CI); with none installed, nothing needs hiding. */
function hidingMethod(): 'namespace' | 'none' | string {
  const present = SYSTEM_NODES.some((file) => fs.existsSync(file));
  if (!present) return 'none';
  if (process.getuid?.() !== 0) return 'hiding /usr/bin/node needs root (a private mount namespace)';
  if (!fs.existsSync('/usr/bin/unshare')) return 'hiding /usr/bin/node needs unshare (util-linux)';
  return 'namespace';
}
const method = hidingMethod();
const skip = method !== 'namespace' && method !== 'none';
if (skip) process.stderr.write(`no-system-node.test.ts skipped: ${method}\n`);

/** `sh -c` body: hide every system node, prove it is gone, then run the command. */
const HIDE = [
  `for n in ${SYSTEM_NODES.join(' ')}; do if [ -e "$n" ]; then mount --bind /dev/null "$n" || exit 96; fi; done`,
  'if command -v node >/dev/null 2>&1; then echo "node is still on PATH: $(command -v node)" >&2; exit 97; fi',
  'exec "$@"',
].join('\n');

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function withoutSystemNode(argv: string[], timeoutMs: number): Promise<Exit> {
  const command = method === 'namespace' ? ['unshare', '-m', '--propagation', 'private', 'sh', '-c', HIDE, 'hide-node', ...argv] : argv;
  return new Promise((resolve, reject) => {
    const child = spawn(command[0] as string, command.slice(1), {
      cwd: os.tmpdir(),
      env: { PATH: BARE_PATH, HOME: home, LANG: 'C.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let tmp = '';
let home = '';
let node = '';

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'arena-no-node-')));
  home = path.join(tmp, 'home');
  fs.mkdirSync(home);
  // A Node in a folder of its own, on no PATH: what the packaged app ships (resources/node-runtime/bin/node).
  node = path.join(tmp, 'runtime', 'bin', 'node');
  fs.mkdirSync(path.dirname(node), { recursive: true });
  fs.copyFileSync(process.execPath, node);
  fs.chmodSync(node, 0o755);
});
afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

function definition(name: string, body: Record<string, unknown>): string {
  const file = path.join(tmp, `${name}.tournament.json`);
  fs.writeFileSync(file, JSON.stringify({ name, format: 'round-robin', concurrency: 2, stop: { kind: 'fixed' }, ...body }));
  return file;
}

interface Event {
  event: string;
  termination?: string;
  fault?: string;
  stop_reason?: string;
  games_done?: number;
  report_dir?: string;
}

async function play(file: string, dataDir: string): Promise<{ events: Event[]; exit: Exit }> {
  const exit = await withoutSystemNode([node, ARENA, 'run', file, '--data-dir', dataDir, '--json'], 240_000);
  const events = exit.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Event);
  return { events, exit };
}

function expectCompleted(events: Event[], exit: Exit, games: number): Event {
  expect(exit.code, exit.stderr).toBe(0);
  const ended = events.filter((e) => e.event === 'game_ended');
  expect(
    ended.map((e) => [e.termination, e.fault]),
    exit.stderr,
  ).toEqual(Array.from({ length: games }, () => ['completed', 'none']));
  const finished = events.at(-1) as Event;
  expect(finished).toMatchObject({ event: 'finished', stop_reason: 'complete', games_done: games });
  return finished;
}

describe.skipIf(skip)('with no node on PATH and the engine run from a Node outside PATH', () => {
  it('a round-robin of two shipped PSI baselines completes, and the run manifest records that Node and the PATH', async () => {
    const file = definition('psi', {
      challenge: 'psi',
      games_per_pairing: 2,
      seed: 'no-system-node-psi',
      agents: [
        { manifest: path.join(ROOT, 'challenges/psi/agents/honest-exact/agent.yaml'), id: 'honest-exact' },
        { manifest: path.join(ROOT, 'challenges/psi/agents/cautious-minimal/agent.yaml'), id: 'cautious-minimal' },
      ],
      limits: { move_seconds: 20, game_seconds: 60 },
    });
    const { events, exit } = await play(file, path.join(tmp, 'data-psi'));
    const finished = expectCompleted(events, exit, 2);
    const manifest = JSON.parse(fs.readFileSync(path.join(finished.report_dir as string, 'manifest.json'), 'utf8')).manifest;
    expect(manifest.agent_host).toEqual({
      node: { source: 'engine', version: process.version, sha256: createHash('sha256').update(fs.readFileSync(node)).digest('hex') },
      path: BARE_PATH,
    });
  }, 300_000);

  it('a ClawArena game of the Node baseline completes', async () => {
    const file = definition('claw', {
      challenge: 'liars_dice',
      games_per_pairing: 1,
      seed: 'no-system-node-claw',
      agents: [
        { manifest: path.join(ROOT, 'agents/clawarena/baseline-node/agent.yaml'), id: 'baseline-node' },
        { manifest: path.join(ROOT, 'agents/clawarena/baseline-python/agent.yaml'), id: 'baseline-python' },
      ],
      limits: { move_seconds: 20, game_seconds: 90 },
    });
    const { events, exit } = await play(file, path.join(tmp, 'data-claw'));
    expectCompleted(events, exit, 1);
  }, 300_000);

  it('the app launcher `arena-agent` starts on the engine Node, inside the sandbox', async () => {
    // The runner's own launch, driven from the built engine by the copied Node (no vitest inside the namespace).
    const script = path.join(tmp, 'launch-arena-agent.mjs');
    const agentDir = path.join(tmp, 'launcher-agent');
    fs.mkdirSync(agentDir);
    const launch = new URL('dist/engine/runner/launch.js', `file://${ROOT}/`).href;
    const manifestModule = new URL('dist/engine/contract/manifest.js', `file://${ROOT}/`).href;
    fs.writeFileSync(
      script,
      [
        `const { launchAgent } = await import(${JSON.stringify(launch)});`,
        `const { AgentManifestSchema } = await import(${JSON.stringify(manifestModule)});`,
        "const manifest = AgentManifestSchema.parse({ id: 'launcher', name: 'Launcher', framework: 'other', entrypoint: { type: 'command', command: 'arena-agent --help' }, runtime: { type: 'process' }, scenarios: ['s'] });",
        `const result = await launchAgent({ manifest, manifestDir: ${JSON.stringify(agentDir)}, workspaceRoot: ${JSON.stringify(tmp)}, hostEnv: process.env, limits: { timeoutMs: 60000 } }).result;`,
        'process.stdout.write(JSON.stringify({ termination: result.termination, exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr, argv: result.argv, method: result.isolation.method }));',
      ].join('\n'),
    );
    const exit = await withoutSystemNode([node, script], 120_000);
    expect(exit.code, exit.stderr).toBe(0);
    const result = JSON.parse(exit.stdout);
    expect(result, result.stderr).toMatchObject({ termination: 'exited', exitCode: 0, method: 'bubblewrap' });
    expect(result.stdout).toMatch(/^usage: arena-agent <kind>/);
    // Started as `<the engine's Node> <the launcher> --help`, not through its `#!/usr/bin/env node` line.
    const at = result.argv.indexOf(node);
    expect(at, result.argv.join(' ')).toBeGreaterThanOrEqual(0);
    expect(result.argv.slice(at + 1)).toEqual([path.join(ROOT, 'agents', 'bin', 'arena-agent'), '--help']);
  }, 180_000);

  it('`node` agents see that Node read-only, as root inside the sandbox and as an unprivileged uid', async () => {
    // The folders on the way must be searchable by that uid, as an installed app's are.
    for (let dir = path.dirname(node); dir !== path.dirname(tmp); dir = path.dirname(dir)) fs.chmodSync(dir, 0o755);
    const agentDir = path.join(tmp, 'writer-agent');
    fs.mkdirSync(agentDir, { mode: 0o755 });
    const work = path.join(tmp, 'work');
    fs.mkdirSync(work, { mode: 0o777 });
    const script = path.join(tmp, 'launch-writer.mjs');
    const launch = new URL('dist/engine/runner/launch.js', `file://${ROOT}/`).href;
    const manifestModule = new URL('dist/engine/contract/manifest.js', `file://${ROOT}/`).href;
    // The agent reports which Node it runs on and tries to plant a file next to it (writing the running binary itself
    // would fail anyway, with ETXTBSY).
    const body =
      "const fs = require('fs'); const path = require('path'); let r = 'wrote'; try { fs.writeFileSync(path.join(path.dirname(process.execPath), 'planted'), 'x') } catch (e) { r = e.code } console.log(JSON.stringify({ node: process.execPath, uid: process.getuid(), write: r }))";
    fs.writeFileSync(
      script,
      [
        `const { launchAgent } = await import(${JSON.stringify(launch)});`,
        `const { AgentManifestSchema } = await import(${JSON.stringify(manifestModule)});`,
        `const manifest = AgentManifestSchema.parse({ id: 'writer', name: 'Writer', framework: 'other', entrypoint: { type: 'command', command: ['node', '-e', ${JSON.stringify(body)}] }, runtime: { type: 'process' }, scenarios: ['s'] });`,
        'const out = [];',
        'for (const runAs of [undefined, { uid: 65534, gid: 65534 }]) {',
        `  const result = await launchAgent({ manifest, manifestDir: ${JSON.stringify(agentDir)}, workspaceRoot: ${JSON.stringify(work)}, hostEnv: process.env, limits: { timeoutMs: 60000 }, ...(runAs ? { runAs } : {}) }).result;`,
        '  out.push({ termination: result.termination, exitCode: result.exitCode, stdout: result.stdout.trim(), stderr: result.stderr });',
        '}',
        'process.stdout.write(JSON.stringify(out));',
      ].join('\n'),
    );
    const exit = await withoutSystemNode([node, script], 120_000);
    expect(exit.code, exit.stderr).toBe(0);
    const [asRoot, asNobody] = JSON.parse(exit.stdout) as Array<{ exitCode: number; stdout: string; stderr: string }>;
    expect(asRoot?.exitCode, asRoot?.stderr).toBe(0);
    expect(JSON.parse(asRoot?.stdout as string)).toEqual({ node, uid: 0, write: 'EROFS' });
    expect(asNobody?.exitCode, asNobody?.stderr).toBe(0);
    expect(JSON.parse(asNobody?.stdout as string)).toMatchObject({ node, uid: 65534 });
    expect(['EROFS', 'EACCES']).toContain(JSON.parse(asNobody?.stdout as string).write);
    expect(fs.existsSync(path.join(path.dirname(node), 'planted'))).toBe(false);
  }, 180_000);
});
