// `rediss://` with a password, for real: Debian's redis-server on a TLS-only loopback port with `--requirepass`, its
// certificate for 127.0.0.1 signed by a throwaway CA made here with the openssl CLI. A worker and a coordinator that
// trust that CA the way the README says (NODE_EXTRA_CA_CERTS) play a small PSI tournament, every game settled once;
// a worker or coordinator without the CA, or dialling an address the certificate does not name, is refused at once
// (exit 1, a message naming TLS and the certificate), and a wrong password still meets Redis's refusal.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { tempDir } from '../tournaments/helpers.js';
import {
  type CliProcess,
  ensureBuilt,
  freePort,
  gameRows,
  hasRedis,
  initWorkerKey,
  psiSpec,
  spawnCli,
  startWorker,
  trustedFileOf,
  untilPort,
} from './harness.js';

function hasOpenssl(): boolean {
  return spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
}

/** Debian builds redis-server with TLS; a build without it does not know the tls-* directives at all. */
function redisHasTls(): boolean {
  const probe = spawnSync(
    'redis-server',
    ['--port', '0', '--tls-port', '1', '--tls-cert-file', 'missing.pem', '--tls-key-file', 'missing.key'],
    {
      encoding: 'utf8',
      timeout: 10_000,
    },
  );
  return /Failed to configure TLS|tls-ca-cert/.test(`${probe.stdout}${probe.stderr}`);
}

const missing = !hasRedis()
  ? 'redis-server is not installed (Debian: apt-get install redis-server)'
  : !hasOpenssl()
    ? 'the openssl CLI is not installed (Debian: apt-get install openssl)'
    : !redisHasTls()
      ? 'this redis-server was built without TLS'
      : null;
if (missing) console.warn(`rediss:// tests skipped: ${missing}`);

const PASSWORD = 'tls-and-a-password';
const RATED = /^(completed|adjudicated|agent_)/;

/** A CA, and a server certificate for IP 127.0.0.1 it signed (EC keys: quick to make). */
function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const file = (name: string) => path.join(dir, name);
  const openssl = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], timeout: 20_000 });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl([
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '1',
    '-subj',
    '/CN=Local Arena test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  openssl(['req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=127.0.0.1']);
  fs.writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl([
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.pem'),
    '-days',
    '1',
    '-extfile',
    file('server.ext'),
  ]);
  return { ca: file('ca.pem'), cert: file('server.pem'), key: file('server.key') };
}

describe.skipIf(missing !== null)('rediss:// with a password: a TLS-only redis-server', () => {
  let dir: string;
  let redis: ChildProcess | null = null;
  let url: string;
  let port: number;
  let trusted: NodeJS.ProcessEnv;
  const processes: CliProcess[] = [];
  const track = (p: CliProcess): CliProcess => {
    processes.push(p);
    return p;
  };

  beforeAll(async () => {
    ensureBuilt();
    dir = tempDir('arena-queue-tls-');
    const { ca, cert, key } = makeCertificates(dir);
    port = await freePort();
    // Only the TLS port listens: nothing reaches this Redis in clear text.
    redis = spawn(
      'redis-server',
      [
        '--port',
        '0',
        '--tls-port',
        String(port),
        // A second loopback address the certificate does not name.
        '--bind',
        '127.0.0.1',
        '127.0.0.2',
        '--tls-cert-file',
        cert,
        '--tls-key-file',
        key,
        '--tls-ca-cert-file',
        ca,
        '--tls-auth-clients',
        'no',
        '--requirepass',
        PASSWORD,
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      { stdio: 'ignore' },
    );
    await untilPort(port, true);
    url = `rediss://127.0.0.1:${port}`;
    trusted = { NODE_EXTRA_CA_CERTS: ca, ARENA_QUEUE_PASSWORD: PASSWORD };
  }, 250_000);
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((p) => p.kill('SIGKILL')));
  });
  afterAll(async () => {
    const r = redis;
    if (r && r.exitCode === null) {
      const closed = new Promise((resolve) => r.once('close', resolve));
      r.kill('SIGKILL');
      await closed;
    }
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a worker and a coordinator that trust the CA play a PSI tournament over TLS, every game settled once', async () => {
    const worker = track(await startWorker(url, path.join(dir, 'w1'), 'tls-w1', undefined, trusted));
    expect(worker.events[0]).toMatchObject({ event: 'worker_ready', queue: url });
    const data = path.join(dir, 'coordinator');
    const spec = path.join(dir, 'tls.tournament.yaml');
    fs.writeFileSync(spec, YAML.stringify(psiSpec('tls', ['honest-exact', 'greedy-overclaim'], 4, 2)));
    // The coordinator's password in the URL, the worker's from the environment: both ways reach the same Redis.
    const run = track(
      spawnCli(
        [
          'run',
          spec,
          '--queue',
          `rediss://:${PASSWORD}@127.0.0.1:${port}`,
          '--trusted-workers',
          trustedFileOf(path.join(dir, 'w1')),
          '--data-dir',
          data,
          '--json',
        ],
        {
          NODE_EXTRA_CA_CERTS: trusted.NODE_EXTRA_CA_CERTS,
        },
      ),
    );
    expect(await run.exited, run.stderr()).toBe(0);
    const id = String(run.events.find((e) => e.event === 'started')?.tournament_id);
    const rows = gameRows(data, id);
    expect([...new Set(rows.map((r) => r.game_index))].sort()).toEqual([0, 1, 2, 3]);
    for (let index = 0; index < 4; index++)
      expect(
        rows.filter((r) => r.game_index === index && RATED.test(r.termination)),
        `game ${index}`,
      ).toHaveLength(1);
    expect(rows.every((r) => r.worker_id === 'tls-w1')).toBe(true);
    const jobs = worker.events.filter((e) => e.event === 'game_started').map((e) => String(e.job));
    expect(new Set(jobs).size).toBe(rows.length);
    expect(jobs).toHaveLength(rows.length);
  }, 60_000);

  it('without the CA (or at an address the certificate does not name) a client is refused at once: exit 1, naming TLS', async () => {
    const env = { NODE_EXTRA_CA_CERTS: '', ARENA_QUEUE_PASSWORD: PASSWORD };
    // Keys in place, so what refuses them is the queue, not a missing key or trust.
    const trustFile = path.join(dir, 'tls-trusted.txt');
    fs.writeFileSync(trustFile, ['untrusted', 'wrong', 'elsewhere'].map((w) => `${initWorkerKey(path.join(dir, w))} ${w}\n`).join(''));
    const worker = track(spawnCli(['worker', '--queue', url, '--data-dir', path.join(dir, 'untrusted')], env));
    const spec = path.join(dir, 'untrusted.tournament.yaml');
    fs.writeFileSync(spec, YAML.stringify(psiSpec('untrusted', ['honest-exact', 'greedy-overclaim'], 1, 1)));
    const run = track(
      spawnCli(['run', spec, '--queue', url, '--trusted-workers', trustFile, '--data-dir', path.join(dir, 'untrusted-run')], env),
    );
    const [workerCode, runCode] = await Promise.all([worker.exited, run.exited]);
    for (const [code, p] of [
      [workerCode, worker],
      [runCode, run],
    ] as const) {
      // Refused on the handshake with OpenSSL's reason (a hang would end in the 10 s connect timeout's message).
      expect(code, p.stderr()).toBe(1);
      expect(p.stderr()).toMatch(
        /cannot reach the queue at rediss:\/\/127\.0\.0\.1:\d+: TLS: the server's certificate is not trusted \(.*certificate.*\); trust its CA with NODE_EXTRA_CA_CERTS=FILE/,
      );
      expect(p.stderr()).not.toContain(PASSWORD);
    }
    // A trusted client with a wrong password gets through TLS, then Redis refuses it.
    const wrong = track(
      spawnCli(['worker', '--queue', url, '--data-dir', path.join(dir, 'wrong')], { ...trusted, ARENA_QUEUE_PASSWORD: 'nope' }),
    );
    // The trusted CA's certificate, but for another address than the one dialled: the name is checked too.
    const elsewhere = track(
      spawnCli(['worker', '--queue', `rediss://127.0.0.2:${port}`, '--data-dir', path.join(dir, 'elsewhere')], trusted),
    );
    expect(await wrong.exited).toBe(1);
    expect(wrong.stderr()).toMatch(/cannot reach the queue at rediss:\/\/127\.0\.0\.1:\d+: WRONGPASS/);
    expect(await elsewhere.exited).toBe(1);
    expect(elsewhere.stderr()).toMatch(
      /cannot reach the queue at rediss:\/\/127\.0\.0\.2:\d+: TLS: the server's certificate was refused \(.*127\.0\.0\.2.*\)/,
    );
  }, 60_000);
});
