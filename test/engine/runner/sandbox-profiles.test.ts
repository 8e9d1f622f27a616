// The generated sandbox descriptions, checked as text on every platform: the bubblewrap command line (what is mounted,
// unshared and dropped) and the macOS Seatbelt profile (only its text can be checked here; sandbox-exec runs on macOS).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentManifestSchema } from '../../../engine/contract/manifest.js';
import { bwrapArgv } from '../../../engine/runner/bwrap-argv.js';
import { forwarderScript, loopbackEndpoints, planForwards } from '../../../engine/runner/endpoint-forward.js';
import { removeStaleLaunchDirs } from '../../../engine/runner/os-sandbox.js';
import { linuxView, type SandboxView, SandboxViewError } from '../../../engine/runner/sandbox-view.js';
import { quote, seatbeltProfile } from '../../../engine/runner/seatbelt-profile.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-profiles-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const view: SandboxView = {
  symlinks: [{ link: '/bin', target: 'usr/bin' }],
  readOnly: [
    { source: '/usr', target: '/usr' },
    { source: '/opt/lab/agents/psi-bot', target: '/opt/lab/agents/psi-bot' },
  ],
  hidden: ['/opt/lab/agents/psi-bot/data'],
  workspace: '/private/var/arena/work/run-1',
  searchPath: '/usr/bin',
};

describe('Seatbelt profile (macOS)', () => {
  const profile = seatbeltProfile({
    view,
    tmpDir: '/private/var/arena/tmp-1',
    endpoints: ['127.0.0.1:43117', 'api.openai.com:443'],
    shareNet: false,
  });

  it('denies by default and allows reading only the view, writing only the workspace and its temp folder', () => {
    const lines = profile.trim().split('\n');
    expect(lines.slice(0, 2)).toEqual(['(version 1)', '(deny default)']);
    expect(profile).toContain('(allow file-read* (subpath "/usr") (subpath "/opt/lab/agents/psi-bot") (literal "/bin"))');
    expect(profile).toContain(
      '(allow file-read* file-write* (subpath "/private/var/arena/work/run-1") (subpath "/private/var/arena/tmp-1")',
    );
    expect(profile).toContain('(deny file-read* file-write* (subpath "/opt/lab/agents/psi-bot/data"))');
    // Nothing else of the user's folder is named, and no rule allows writing outside the two folders.
    expect(profile).not.toMatch(/subpath "\/Users\/ada"\)/);
    expect(lines.filter((l) => l.includes('file-write*') && l.startsWith('(allow'))).toHaveLength(1);
    // Metadata (stat) is the only thing readable everywhere, for path resolution; never data.
    expect(lines).toContain('(allow file-read-metadata)');
    expect(lines.filter((l) => /^\(allow file-read\*\)$|^\(allow file-read-data\)$/.test(l))).toEqual([]);
  });

  it('limits signals and process inspection to its own sandbox', () => {
    expect(profile).toContain('(allow signal (target same-sandbox))');
    expect(profile).toContain('(allow process-info* (target same-sandbox))');
    expect(profile).not.toMatch(/\(allow signal\)|\(allow process-info\*\)/);
  });

  it('connects only to the endpoints (names by port: Seatbelt matches addresses, not names)', () => {
    expect(profile).toContain('(allow network-outbound (remote tcp "localhost:43117") (remote tcp "*:443"))');
    expect(profile).toContain('(literal "/private/var/run/mDNSResponder")');
    expect(profile).not.toContain('(allow network*)');
    const offline = seatbeltProfile({ view, tmpDir: '/t', endpoints: [], shareNet: false });
    expect(offline).not.toContain('network');
    expect(seatbeltProfile({ view, tmpDir: '/t', endpoints: [], shareNet: true })).toContain('(allow network*)');
  });

  it('quotes paths so none can end a string early', () => {
    expect(quote('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"');
    const odd = seatbeltProfile({ view: { ...view, workspace: '/w/") (allow default) ("' }, tmpDir: '/t', endpoints: [], shareNet: false });
    expect(odd).toContain('(subpath "/w/\\") (allow default) (\\"")');
    expect(odd).not.toMatch(/^\(allow default\)/m);
  });
});

describe('bubblewrap command line (Linux)', () => {
  it('unshares every namespace, drops capabilities, dies with the engine, and mounts only the view', () => {
    const argv = bwrapArgv({ bwrap: '/usr/bin/bwrap', view, launchDir: '/tmp/arena-sbx-1', shareNet: false });
    expect(argv.slice(0, 6)).toEqual(['/usr/bin/bwrap', '--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL']);
    expect(argv).not.toContain('--share-net');
    expect(argv.join(' ')).toContain('--proc /proc --dev /dev --tmpfs /tmp');
    expect(argv.join(' ')).toContain('--ro-bind /opt/lab/agents/psi-bot /opt/lab/agents/psi-bot');
    expect(argv.join(' ')).toContain('--tmpfs /opt/lab/agents/psi-bot/data');
    expect(argv.join(' ')).toContain('--bind /private/var/arena/work/run-1 /private/var/arena/work/run-1');
    // The only read-write bind is the workspace; the root itself is remounted read-only after the mounts.
    expect(argv.filter((a) => a === '--bind')).toHaveLength(1);
    expect(argv.indexOf('--remount-ro')).toBeGreaterThan(argv.indexOf('--bind'));
    expect(argv.at(-1)).toBe('--');
    expect(bwrapArgv({ bwrap: 'bwrap', view, launchDir: '/l', shareNet: true })).toContain('--share-net');
  });

  it('makes the workspace a tmpfs of its size when bubblewrap can size one, with nothing writable bound in', () => {
    const argv = bwrapArgv({ bwrap: 'bwrap', view, launchDir: '/l', shareNet: false, tmpBytes: 1024, workspaceBytes: 4096 }).join(' ');
    expect(argv).toContain('--size 1024 --tmpfs /tmp');
    expect(argv).toContain('--size 4096 --tmpfs /private/var/arena/work/run-1');
    expect(argv).not.toContain('--bind ');
  });

  it('shows the agent its own folder and the system, never the home folder or the data directory', () => {
    const home = path.join(tmp, 'home');
    const agent = path.join(home, 'agents', 'bot');
    fs.mkdirSync(agent, { recursive: true });
    const data = path.join(agent, 'data');
    fs.mkdirSync(data);
    const v = linuxView({
      agentDir: agent,
      workspace: path.join(tmp, 'ws'),
      hostPath: `${home}/.pyenv/shims:/usr/bin`,
      privatePaths: [data],
      home,
    });
    const targets = v.readOnly.map((r) => r.target);
    expect(targets).toContain(agent);
    expect(targets).toContain('/usr');
    expect(targets).not.toContain(home);
    expect(targets.filter((t) => t.startsWith('/etc'))).not.toContain('/etc/shadow');
    expect(v.hidden).toEqual([data]);
    expect(v.searchPath.split(':')).not.toContain(`${home}/.pyenv/shims`);
    expect(() => linuxView({ agentDir: home, workspace: tmp, hostPath: '/usr/bin', home })).toThrow(SandboxViewError);
  });
});

describe('per-launch folders', () => {
  it('removes only what an engine that no longer runs left behind', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-launch-root-'));
    // 2^22 + 1 is above Linux's largest pid, so no process has it.
    const names = ['arena-sbx-4194305-dead', `arena-sbx-${process.pid}-mine`, 'arena-sbx-1-init', 'arena-sbx-old', 'unrelated'];
    for (const name of names) {
      fs.mkdirSync(path.join(root, name));
      fs.writeFileSync(path.join(root, name, 'hosts'), '127.0.0.1\tlocalhost\n');
    }
    removeStaleLaunchDirs(root);
    expect(fs.readdirSync(root).sort()).toEqual(names.slice(1).sort());
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe('endpoint forwarding', () => {
  it('serves arena URLs under their own address and host names on loopback addresses of their own', () => {
    expect(
      loopbackEndpoints([
        'http://127.0.0.1:43117',
        'http://127.0.0.1:43117/api/v1',
        'https://localhost:8443',
        'secret',
        'http://example.com:80',
      ]),
    ).toEqual(['127.0.0.1:43117', 'localhost:8443']);
    const { forwards, hosts } = planForwards([
      '127.0.0.1:43117',
      'api.openai.com:443',
      'api.anthropic.com:443',
      'localhost:11434',
      '127.0.0.1:43117',
    ]);
    expect(forwards.map((f) => `${f.listenHost}:${f.port}->${f.targetHost}`)).toEqual([
      '127.0.0.1:43117->127.0.0.1',
      '127.0.100.1:443->api.openai.com',
      '127.0.100.2:443->api.anthropic.com',
      '127.0.0.1:11434->127.0.0.1',
    ]);
    expect(hosts).toBe('127.0.0.1\tlocalhost\n127.0.100.1\tapi.openai.com\n127.0.100.2\tapi.anthropic.com\n');
    const socat = { kind: 'socat', path: '/usr/bin/socat' } as const;
    const script = forwarderScript(forwards.slice(0, 1), socat);
    expect(script).toContain(
      "'/usr/bin/socat' -lf /dev/null TCP-LISTEN:43117,bind=127.0.0.1,fork,reuseaddr,nodelay,backlog=128 UNIX-CONNECT:/run/arena/f0.sock &",
    );
    // With socat the agent starts once the sandbox's TCP sockets (only the forwarders' listeners so far) number the forwards.
    expect(script).toContain('< /proc/net/sockstat');
    expect(script).toContain('[ "$inuse" -ge 1 ]');
    expect(forwarderScript(forwards, socat)).toContain('[ "$inuse" -ge 4 ]');
    expect(script.trim().split('\n').at(-1)).toBe('exec "$@"');
    // arena-forward binds every listener before it returns: one command, no wait, the launch failed if it did not.
    const own = forwarderScript(forwards, { kind: 'arena-forward', path: '/app/dist/native/arena-forward' }).split('\n');
    expect(own).toEqual([
      "'/app/dist/native/arena-forward' 127.0.0.1 43117 '/run/arena/f0.sock' 127.0.100.1 443 '/run/arena/f1.sock' 127.0.100.2 443 '/run/arena/f2.sock' 127.0.0.1 11434 '/run/arena/f3.sock' || exit 125",
      'exec "$@"',
    ]);
  });

  it('accepts only host names and loopback addresses in a manifest’s network.allow', () => {
    const parse = (allow: string[]) =>
      AgentManifestSchema.safeParse({
        id: 'net',
        name: 'Net',
        framework: 'node',
        protocol: 'specarena',
        entrypoint: { command: 'node a.mjs' },
        network: { allow },
      });
    expect(parse(['127.0.0.1:11434', 'api.openai.com:443', 'localhost:8080']).success).toBe(true);
    for (const bad of ['10.0.0.5:80', 'api.openai.com', 'host:0', 'host:70000', '[::1]:80', 'bad host:80'])
      expect(parse([bad]).success, bad).toBe(false);
  });
});
