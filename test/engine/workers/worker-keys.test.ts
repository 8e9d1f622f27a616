// Worker keys: `arena worker init` makes an Ed25519 key (private key 0600, kept on a second init), a signature holds
// only for its job, its job's content and its record, a trusted key registered under a name signs for that name only,
// and a coordinator with no trusted worker refuses a queued run (exit 2, naming the fix) before it reaches Redis.
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameResult } from '../../../engine/contract/game-job.js';
import { signatureProblem } from '../../../engine/workers/queue-runner.js';
import {
  KEY_FILE,
  loadWorkerKey,
  publicKeyText,
  readTrustedWorkers,
  signRecord,
  trustedWorkers,
} from '../../../engine/workers/worker-keys.js';
import { scaled } from '../../support/slowness.js';
import { tempDir } from '../tournaments/helpers.js';
import { ensureBuilt, initWorkerKey, spawnCli } from './harness.js';

const record = (workerId: string): GameResult => ({
  worker_id: workerId,
  session_id: 's1',
  invites: [],
  termination: 'completed',
  faulted_seats: [],
  placements: [2, 1],
  scores: null,
  detail: 'completed',
  agent_ms: 12,
  started_at: 1,
  ended_at: 2,
  transcript: [],
  usage: null,
  model_turns: [],
  isolation: null,
});

describe('worker keys and signed records', () => {
  let dir: string;
  beforeAll(() => {
    ensureBuilt();
    dir = tempDir('arena-worker-keys-');
  }, 250_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it(
    'arena worker init makes a 0600 key once and prints its public key; the coordinator trusts it by name',
    async () => {
      const workerDir = path.join(dir, 'w');
      const key = initWorkerKey(workerDir);
      expect(key).toMatch(/^ed25519:[A-Za-z0-9+/]{43}=$/);
      expect(fs.statSync(path.join(workerDir, KEY_FILE)).mode & 0o777).toBe(0o600);
      expect(initWorkerKey(workerDir)).toBe(key);
      expect(loadWorkerKey(workerDir).publicKey).toBe(key);
      const coordinator = path.join(dir, 'c');
      const trust = spawnCli(['workers', 'trust', key, '--name', 'w1', '--data-dir', coordinator]);
      expect(await trust.exited, trust.stderr()).toBe(0);
      expect(trustedWorkers(coordinator, []).map((t) => [t.publicKey, t.name])).toEqual([[key, 'w1']]);
      const bad = spawnCli(['workers', 'trust', 'ed25519:short', '--data-dir', coordinator]);
      expect(await bad.exited).toBe(2);
      expect(bad.stderr()).toMatch(/not a worker public key: ed25519:short/);
      // A key readable by others is refused with the fix.
      fs.chmodSync(path.join(workerDir, KEY_FILE), 0o644);
      expect(() => loadWorkerKey(workerDir)).toThrow(/readable by other users: chmod 600 it/);
    },
    scaled(60_000),
  );

  it('a signature holds for its job, the job content and the record only; names and keys must be trusted', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pub = publicKeyText(createPublicKey(privateKey));
    const file = path.join(dir, 'trusted.txt');
    fs.writeFileSync(file, `# lab workers\n${pub} w1\n`);
    const trusted = readTrustedWorkers(file);
    const job = { game: { seed: 'a' } };
    const signed = (r: GameResult, jobId = 'j.g0.a1', content: unknown = job): GameResult => {
      const withKey = { ...r, worker_key: pub };
      return { ...withKey, signature: signRecord(privateKey, jobId, content, withKey) };
    };
    const ok = signed(record('w1'));
    expect(signatureProblem(trusted, 'j.g0.a1', job, ok)).toBeNull();
    // Another job (a genuine record replayed), a job altered in Redis, an altered record, another name, no signature.
    expect(signatureProblem(trusted, 'j.g1.a1', job, ok)).toMatch(/signature does not match/);
    expect(signatureProblem(trusted, 'j.g0.a1', { game: { seed: 'b' } }, ok)).toMatch(/signature does not match/);
    expect(signatureProblem(trusted, 'j.g0.a1', job, { ...ok, placements: [1, 2] })).toMatch(/signature does not match/);
    // The parts a bundle does not carry (detail, transcript) are covered through the record's digest.
    expect(signatureProblem(trusted, 'j.g0.a1', job, { ...ok, detail: 'forfeit' })).toMatch(/signature does not match/);
    expect(signatureProblem(trusted, 'j.g0.a1', job, { ...ok, agent_ms: 13 })).toMatch(/signature does not match/);
    expect(signatureProblem(trusted, 'j.g0.a1', job, signed(record('w2')))).toMatch(/trusted as worker w1, not "w2"/);
    expect(signatureProblem(trusted, 'j.g0.a1', job, record('w1'))).toMatch(/unsigned/);
    const stranger = generateKeyPairSync('ed25519').privateKey;
    const strangerKey = publicKeyText(createPublicKey(stranger));
    const foreign = { ...record('w1'), worker_key: strangerKey };
    expect(
      signatureProblem(trusted, 'j.g0.a1', job, {
        ...foreign,
        signature: signRecord(stranger, 'j.g0.a1', job, foreign),
      }),
    ).toMatch(/signed with a key this coordinator does not trust/);
    fs.writeFileSync(file, `${pub} w1 extra\n`);
    expect(() => readTrustedWorkers(file)).toThrow(/line 1: expected "<public key> \[name\]"/);
  });

  it(
    'arena run --queue without a trusted worker exits 2 naming the fix, before it reaches the queue',
    async () => {
      const spec = path.join(dir, 'none.tournament.yaml');
      fs.writeFileSync(spec, 'name: none\n');
      // Nothing listens on port 1: were the queue tried first, this would exit 1 instead.
      const run = spawnCli(['run', spec, '--queue', 'redis://127.0.0.1:1', '--data-dir', path.join(dir, 'none')]);
      expect(await run.exited).toBe(2);
      expect(run.stderr()).toMatch(/--queue needs trusted workers: .*arena worker init.*arena workers trust <its public key>/);
    },
    scaled(60_000),
  );
});
