// A hostile agent's own manifest sets LD_PRELOAD to a library in its folder (compiled here with cc). The library logs
// every process it loads into, by executable and hostname, to a host file the sandbox does not show. The engine's
// host-side helpers (prlimit, setpriv, bwrap, unshare, the env shim) must never load it: only the agent itself, inside
// its sandbox (hostname arena-agent), as root and as an unprivileged user. A trusted launch loads it into the agent
// only, never into a helper. The manifest schema refuses the variable up front as well.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentManifest, AgentManifestSchema } from '../../../engine/contract/manifest.js';
import { type LaunchOptions, launchAgent } from '../../../engine/runner/launch.js';
import { sandboxSupport } from '../../../engine/runner/sandbox.js';

const linuxWithSandbox = process.platform === 'linux' && sandboxSupport().bwrap != null;
const cc = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v cc'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
})();
if (linuxWithSandbox && cc === null) console.warn('hostile-loader: no C compiler (cc): the LD_PRELOAD attack is skipped');

const EVIL_C = `#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void evil(void) {
  char exe[512] = {0}, host[128] = {0}, line[800];
  if (readlink("/proc/self/exe", exe, sizeof exe - 1) < 0) exe[0] = '?';
  gethostname(host, sizeof host - 1);
  int n = snprintf(line, sizeof line, "EVIL exe=%s host=%s uid=%d\\n", exe, host, (int)getuid());
  int fd = open(EVIL_LOG, O_WRONLY | O_APPEND | O_CREAT, 0666);
  if (fd >= 0) { write(fd, line, n); close(fd); }
  write(2, line, n);
}
`;

let root: string;
let agentDir: string;
let logFile: string;

beforeAll(() => {
  if (!linuxWithSandbox || cc === null) return;
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-loader-'));
  fs.chmodSync(root, 0o755);
  const logDir = path.join(root, 'host-log');
  fs.mkdirSync(logDir, { mode: 0o777 });
  fs.chmodSync(logDir, 0o777);
  logFile = path.join(logDir, 'evil.log');
  agentDir = path.join(root, 'agent');
  fs.mkdirSync(agentDir, { mode: 0o755 });
  fs.writeFileSync(path.join(agentDir, 'evil.c'), EVIL_C);
  execFileSync(cc, ['-shared', '-fPIC', '-o', path.join(agentDir, 'evil.so'), `-DEVIL_LOG="${logFile}"`, path.join(agentDir, 'evil.c')]);
  fs.chmodSync(path.join(agentDir, 'evil.so'), 0o755);
});

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** The manifest as the attacker wrote it: the schema refuses it, so the runner's own defence is tried by hand. */
function evilManifest(): AgentManifest {
  const env = { LD_PRELOAD: path.join(agentDir, 'evil.so') };
  const input = {
    id: 'loader',
    name: 'Loader',
    framework: 'node',
    protocol: 'specarena',
    entrypoint: { command: ['node', '-e', 'console.log("agent ran")'], env },
  };
  const refused = AgentManifestSchema.safeParse(input);
  expect(refused.success).toBe(false);
  expect(refused.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
    expect.stringMatching(/^entrypoint\.env\.LD_PRELOAD: is a loader variable/),
  ]);
  const manifest = AgentManifestSchema.parse({ ...input, entrypoint: { ...input.entrypoint, env: {} } });
  manifest.entrypoint.env = env;
  return manifest;
}

async function launch(extra: Partial<LaunchOptions> = {}) {
  fs.rmSync(logFile, { force: true });
  const workspaceRoot = path.join(root, 'work');
  fs.mkdirSync(workspaceRoot, { recursive: true, mode: 0o755 });
  const run = await launchAgent({
    manifest: evilManifest(),
    manifestDir: agentDir,
    workspaceRoot,
    hostEnv: { PATH: process.env.PATH },
    limits: { timeoutMs: 30_000 },
    ...extra,
  }).result;
  const hostLog = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
  const loaded = run.stderr.split('\n').filter((l) => l.startsWith('EVIL '));
  return { run, hostLog, loaded };
}

describe.runIf(linuxWithSandbox && cc !== null)('LD_PRELOAD from an agent manifest', () => {
  it('never loads into a host-side helper: only into the agent, inside the sandbox', async () => {
    const { run, hostLog, loaded } = await launch();
    expect(run.stdout).toBe('agent ran\n');
    expect(run.isolation).toMatchObject({ method: 'bubblewrap', trusted: false });
    expect(run.isolation.rlimits?.method).toBe('prlimit');
    expect(hostLog).toBe('');
    // The attack is real: the library did load, in the agent, where the sandbox holds.
    expect(loaded.length).toBeGreaterThan(0);
    for (const line of loaded) expect(line).toMatch(/exe=\S*node host=arena-agent /);
  });

  it.runIf(process.getuid?.() === 0)('never loads into setpriv or bubblewrap when the agent runs as nobody', async () => {
    const { run, hostLog, loaded } = await launch({ runAs: { uid: 65534, gid: 65534 } });
    expect(run.stdout).toBe('agent ran\n');
    expect(hostLog).toBe('');
    expect(loaded.length).toBeGreaterThan(0);
    for (const line of loaded) expect(line).toMatch(/exe=\S*node host=arena-agent uid=65534$/);
  });

  it('a trusted launch loads it into the agent only, never into prlimit, unshare or the shell', async () => {
    const { run, hostLog } = await launch({ trusted: true });
    expect(run.stdout).toBe('agent ran\n');
    expect(run.isolation).toMatchObject({ method: 'none', trusted: true });
    const exes = hostLog
      .trim()
      .split('\n')
      .map((l) => /exe=(\S*)/.exec(l)?.[1]);
    expect(exes.length).toBeGreaterThan(0);
    expect(exes.filter((exe) => exe !== fs.realpathSync(process.execPath))).toEqual([]);
  });
});
