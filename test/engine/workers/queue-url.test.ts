// The --queue URL: redis:// and rediss:// with a user, a password (or ARENA_QUEUE_PASSWORD) and a database; anything
// else refused with a message that never echoes the password. Then a real password-protected redis-server: the
// right password lets a worker in, a wrong one exits 1 naming Redis's refusal.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQueueUrl, QueueUrlError } from '../../../engine/workers/queue-connection.js';
import { tempDir } from '../tournaments/helpers.js';
import { ensureBuilt, hasRedis, initWorkerKey, spawnCli } from './harness.js';

describe('parseQueueUrl', () => {
  it('reads host, port, database, user and password; rediss turns TLS on', () => {
    const plain = parseQueueUrl('redis://10.0.0.5:6380/2', 'worker', {});
    expect(plain.connection).toMatchObject({ host: '10.0.0.5', port: 6380, db: 2, connectionName: 'arena-worker' });
    expect(plain.connection).not.toHaveProperty('tls');
    expect(plain.connection).not.toHaveProperty('password');
    const tls = parseQueueUrl('rediss://arena:s%40cret@redis.lab.example', 'coordinator', {});
    expect(tls.connection).toMatchObject({
      host: 'redis.lab.example',
      port: 6379,
      username: 'arena',
      password: 's@cret',
      tls: { servername: 'redis.lab.example' },
    });
    expect(tls.display).toBe('rediss://redis.lab.example');
    expect(tls.display).not.toContain('cret');
    // An IP address is verified against the certificate's IP entries, without SNI (which takes names only).
    expect(parseQueueUrl('rediss://127.0.0.1:7000', 'worker', {}).connection).toMatchObject({ host: '127.0.0.1', tls: {} });
    expect(parseQueueUrl('rediss://127.0.0.1:7000', 'worker', {}).connection).not.toHaveProperty('tls.servername');
  });

  it('takes the password from ARENA_QUEUE_PASSWORD when the URL has none', () => {
    expect(parseQueueUrl('redis://127.0.0.1:7000', 'worker', { ARENA_QUEUE_PASSWORD: 'from-env' }).connection).toMatchObject({
      password: 'from-env',
    });
  });

  it('refuses other schemes, a database that is not a number and query strings, without echoing a password', () => {
    for (const bad of ['http://h:1', 'redis:///', 'redis://h:1/db', 'redis://h:1?x=1', 'not a url :pw@']) {
      let error: unknown;
      try {
        parseQueueUrl(bad, 'worker', {});
      } catch (e) {
        error = e;
      }
      expect(error, bad).toBeInstanceOf(QueueUrlError);
    }
    let message = '';
    try {
      parseQueueUrl('ftp://user:hunter2@h', 'worker', {});
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).not.toContain('hunter2');
  });
});

describe.skipIf(!hasRedis())('a password-protected Redis', () => {
  let dir: string;
  let port: number;
  let redis: ReturnType<typeof spawn>;
  beforeAll(async () => {
    ensureBuilt();
    dir = tempDir('arena-queue-auth-');
    port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    redis = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--requirepass', 'open-sesame'],
      { stdio: 'ignore' },
    );
    await new Promise((r) => setTimeout(r, 300));
  }, 250_000);
  afterAll(() => {
    redis?.kill('SIGKILL');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a worker with the password from the environment gets in; a wrong one exits 1 with Redis’s refusal', async () => {
    // Keys in place, so what decides is the password.
    initWorkerKey(path.join(dir, 'ok'));
    initWorkerKey(path.join(dir, 'bad'));
    const good = spawnCli(['worker', '--queue', `redis://127.0.0.1:${port}`, '--data-dir', path.join(dir, 'ok'), '--json'], {
      ARENA_QUEUE_PASSWORD: 'open-sesame',
    });
    try {
      await good.until((e) => e.event === 'worker_ready', 30_000);
    } finally {
      await good.kill('SIGTERM');
    }
    const bad = spawnCli(['worker', '--queue', `redis://:wrong@127.0.0.1:${port}`, '--data-dir', path.join(dir, 'bad')]);
    expect(await bad.exited).toBe(1);
    expect(bad.stderr()).toMatch(/cannot reach the queue at redis:\/\/127\.0\.0\.1:\d+: WRONGPASS/);
    expect(bad.stderr()).not.toContain('wrong@');
  }, 60_000);
});
