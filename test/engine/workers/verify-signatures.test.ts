// `arena verify` re-checks the signature of every game a worker played, offline, from the bundle alone: a real run on
// two real `arena worker` processes through a real redis-server, exported with `arena export --bundle` and checked
// by `arena verify` processes in a folder that holds nothing else. Copies of the bundle are then tampered with, each
// with bundle.json's hashes rewritten to match (so only the signatures can tell): a game's winner changed, a
// signature altered, moved to another game or removed, the trusted-key list changed, and a forger's re-signed record
// with its own key listed. Each makes verify exit 1 naming the game.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { canonicalJson } from '../../../engine/runtime/canonical-json.js';
import { readTarGz, writeTarGz } from '../../../engine/tournaments/bundle/bundle.js';
import { publicKeyText } from '../../../engine/workers/worker-keys.js';
import { scaled } from '../../support/slowness.js';
import { tempDir } from '../tournaments/helpers.js';
import {
  BIN,
  type CliProcess,
  ensureBuilt,
  hasRedis,
  psiSpec,
  spawnCoordinator,
  startRedis,
  startWorker,
  type TestRedis,
  tournamentIdOf,
  trustedFileOf,
} from './harness.js';

const redisMissing = !hasRedis();
if (redisMissing) console.warn('bundle signature tests skipped: redis-server is not installed (Debian: apt-get install redis-server)');

interface ReportGame {
  game_index: number;
  attempt: number;
  termination: string;
  placements: number[] | null;
  result: { placements: number[] | null; faulted_seats: number[] };
  worker_id: string | null;
  worker_key: string | null;
  worker_signature: string | null;
}
interface SignedLine {
  game_index: number;
  attempt: number;
  signature: string;
  attestation: { result: Record<string, unknown>; game: Record<string, unknown> } & Record<string, unknown>;
}

describe.skipIf(redisMissing)('arena verify re-checks worker signatures from the bundle alone', () => {
  let dir: string;
  let redis: TestRedis;
  const workers: CliProcess[] = [];
  let bundle: Buffer;
  /** Where verify runs: a folder with nothing but the bundles (no data folder, no trusted-workers file, no redis). */
  let offline: string;
  let trustedText: string;

  beforeAll(async () => {
    ensureBuilt();
    dir = tempDir('arena-verify-sig-');
    redis = await startRedis(dir);
    workers.push(await startWorker(redis.url, path.join(dir, 'w1'), 'w1'));
    workers.push(await startWorker(redis.url, path.join(dir, 'w2'), 'w2'));
    const data = path.join(dir, 'coordinator');
    const spec = path.join(dir, 'vsig.tournament.yaml');
    fs.writeFileSync(spec, YAML.stringify(psiSpec('vsig', ['honest-exact', 'greedy-overclaim', 'cautious-minimal'], 4, 4)));
    const run = spawnCoordinator([spec, '--data-dir', data], redis.url, trustedFileOf(path.join(dir, 'w1')));
    expect(await run.exited, run.stderr()).toBe(0);
    const id = tournamentIdOf(run);
    await Promise.all(workers.splice(0).map((w) => w.kill('SIGTERM')));
    await redis.kill();
    offline = fs.mkdtempSync(path.join(dir, 'offline-'));
    const out = path.join(offline, 'run.bundle.tar.gz');
    execFileSync(process.execPath, [BIN, 'export', '--bundle', id, '--data-dir', data, '--out', out], { encoding: 'utf8' });
    bundle = fs.readFileSync(out);
    trustedText = fs.readFileSync(trustedFileOf(path.join(dir, 'w1')), 'utf8');
  }, scaled(300_000));
  afterAll(async () => {
    await Promise.all(workers.splice(0).map((w) => w.kill('SIGKILL')));
    await redis?.kill();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** `arena verify` on a bundle (written into the offline folder), as a real process run there. */
  const verify = (archive: Buffer, name: string, extra: string[] = []): { code: number | null; out: string } => {
    const file = path.join(offline, `${name}.tar.gz`);
    fs.writeFileSync(file, archive);
    const r = spawnSync(process.execPath, [BIN, 'verify', file, ...extra], {
      cwd: offline,
      encoding: 'utf8',
      // No way back to the coordinator: its data folder is not named, and the default one is empty.
      env: { ...process.env, ARENA_DATA_DIR: path.join(offline, 'no-data') },
    });
    return { code: r.status, out: `${r.stdout}${r.stderr}` };
  };

  /** A copy of the bundle with some members edited and bundle.json's hashes made to match them. */
  const tampered = (edit: (files: Map<string, Buffer>) => void): Buffer => {
    const files = readTarGz(bundle);
    edit(files);
    const index = JSON.parse((files.get('bundle.json') as Buffer).toString('utf8')) as {
      files: Array<{ path: string; sha256: string; bytes: number }>;
    };
    for (const f of index.files) {
      const data = files.get(f.path) as Buffer;
      f.sha256 = createHash('sha256').update(data).digest('hex');
      f.bytes = data.length;
    }
    files.set('bundle.json', Buffer.from(`${JSON.stringify(index, null, 2)}\n`));
    return writeTarGz([...files].map(([p, data]) => ({ path: p, data })));
  };
  const reportOf = (files: Map<string, Buffer>) => JSON.parse((files.get('reports/report.json') as Buffer).toString('utf8'));
  const linesOf = (files: Map<string, Buffer>): SignedLine[] =>
    (files.get('workers/signed-records.jsonl') as Buffer)
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as SignedLine);
  const setLines = (files: Map<string, Buffer>, lines: SignedLine[]) =>
    files.set('workers/signed-records.jsonl', Buffer.from(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`));
  /** A completed game with a winner, played on a worker: the one the tampering targets. */
  const target = (files: Map<string, Buffer>): ReportGame => {
    const game = (reportOf(files).games as ReportGame[]).find(
      (g) => g.worker_id !== null && g.termination === 'completed' && g.result.placements?.[0] !== g.result.placements?.[1],
    );
    if (!game) throw new Error('the run has no decided worker-played game');
    return game;
  };
  /** Changes the report's entry of `game` (same index and attempt) and writes report.json back. */
  const editReportEntry = (files: Map<string, Buffer>, game: ReportGame, edit: (entry: ReportGame) => void): void => {
    const report = reportOf(files);
    const entry = (report.games as ReportGame[]).find((g) => g.game_index === game.game_index && g.attempt === game.attempt);
    if (!entry) throw new Error(`report.json has no game ${game.game_index} attempt ${game.attempt}`);
    edit(entry);
    files.set('reports/report.json', Buffer.from(JSON.stringify(report, null, 2)));
  };
  const named = (g: ReportGame) => `game ${g.game_index} attempt ${g.attempt} (worker "${g.worker_id}")`;
  const swap = (p: number[] | null) => (p ? [p[1] as number, p[0] as number, ...p.slice(2)] : p);

  it(
    'the exported bundle carries every worker game signature and the keys, and verifies offline',
    () => {
      const files = readTarGz(bundle);
      const games = reportOf(files).games as ReportGame[];
      const played = games.filter((g) => g.worker_id !== null);
      expect(played.length).toBeGreaterThanOrEqual(6);
      expect(new Set(played.map((g) => g.worker_id))).toEqual(new Set(['w1', 'w2']));
      const lines = linesOf(files);
      expect(lines.map((l) => `${l.game_index}/${l.attempt}`)).toEqual(played.map((g) => `${g.game_index}/${g.attempt}`));
      // No transcript and no folder of a worker ride along: the attestation holds the record's digest instead.
      for (const l of lines) expect(Object.keys(l.attestation).sort()).toEqual(['game', 'job_id', 'job_sha256', 'record_sha256', 'result']);
      const keys = JSON.parse((files.get('workers/trusted-keys.json') as Buffer).toString('utf8')).keys as Array<{
        public_key: string;
        workers: string[];
      }>;
      const published = trustedText
        .trim()
        .split('\n')
        .map((l) => l.split(' '));
      expect(keys.map((k) => [k.public_key, k.workers.join(',')]).sort()).toEqual(published.map(([k, id]) => [k, id]).sort());

      const ok = verify(bundle, 'clean');
      expect(ok.out).toContain(`ok    ${played.length} worker-played game records carry valid signatures of what report.json states`);
      expect(ok.out).not.toContain('FAIL');
      expect(ok.code, ok.out).toBe(0);
      // With the lab's published list of trusted workers, as a reader would check it.
      fs.writeFileSync(path.join(offline, 'published.txt'), trustedText);
      const pinned = verify(bundle, 'clean-pinned', ['--trusted-workers', path.join(offline, 'published.txt')]);
      expect(pinned.code, pinned.out).toBe(0);
      expect(pinned.out).toContain('by 2 keys in the trusted workers file given');
    },
    scaled(120_000),
  );

  it(
    "a game's winner changed in report.json (everything re-hashed to match) fails on that game's signed record",
    () => {
      let game: ReportGame | undefined;
      const copy = tampered((files) => {
        game = target(files);
        editReportEntry(files, game, (entry) => {
          entry.result.placements = swap(entry.result.placements);
          entry.placements = swap(entry.placements);
        });
      });
      const r = verify(copy, 'winner');
      const g = game as ReportGame;
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain(
        `FAIL  reports/report.json: ${named(g)}: placements is ${JSON.stringify(swap(g.result.placements))}, the worker's signed record says ${JSON.stringify(g.result.placements)}`,
      );
    },
    scaled(120_000),
  );

  it(
    'the winner changed in the signed record as well: its signature no longer matches',
    () => {
      let game: ReportGame | undefined;
      const copy = tampered((files) => {
        game = target(files);
        editReportEntry(files, game, (entry) => {
          entry.result.placements = swap(entry.result.placements);
        });
        const lines = linesOf(files);
        const line = lines.find((l) => l.game_index === game?.game_index && l.attempt === game?.attempt) as SignedLine;
        line.attestation.result.placements = swap(line.attestation.result.placements as number[]);
        setLines(files, lines);
      });
      const r = verify(copy, 'winner-signed');
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain(
        `FAIL  workers/signed-records.jsonl: ${named(game as ReportGame)}: the signature does not match the signed record (altered after signing, or not signed by this key)`,
      );
    },
    scaled(120_000),
  );

  it(
    'a signature altered, one moved from another game, and one removed: each fails naming its game',
    () => {
      const files = readTarGz(bundle);
      const [first, second, third] = linesOf(files);
      if (!first || !second || !third) throw new Error('fewer than three signed records');
      const name = (l: SignedLine) => {
        const g = (reportOf(files).games as ReportGame[]).find(
          (x) => x.game_index === l.game_index && x.attempt === l.attempt,
        ) as ReportGame;
        return named(g);
      };
      const copy = tampered((f) => {
        const lines = linesOf(f);
        const [a, b] = lines as [SignedLine, SignedLine];
        // One bit of the first signature flipped; the second game's signature and record replaced by the first's.
        const bytes = Buffer.from(a.signature, 'base64');
        bytes[0] = (bytes[0] as number) ^ 1;
        const flipped = bytes.toString('base64');
        lines[0] = { ...a, signature: flipped };
        lines[1] = { ...b, signature: a.signature, attestation: a.attestation };
        // The third game's line dropped from the signed records (its copy in report.json alone cannot be checked).
        setLines(
          f,
          lines.filter((l) => !(l.game_index === third.game_index && l.attempt === third.attempt)),
        );
        const report = reportOf(f);
        for (const g of report.games as ReportGame[])
          if (g.game_index === first.game_index && g.attempt === first.attempt) g.worker_signature = flipped;
        f.set('reports/report.json', Buffer.from(JSON.stringify(report, null, 2)));
      });
      const r = verify(copy, 'signatures');
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain(`FAIL  workers/signed-records.jsonl: ${name(first)}: the signature does not match the signed record`);
      // The first game's genuine record, moved: it names another game than the one it now stands for.
      expect(r.out).toMatch(
        new RegExp(`FAIL  reports/report\\.json: ${literal(name(second))}: (job_id|game_index) is .*signed for another game or run`),
      );
      expect(r.out).toContain(`FAIL  workers/signed-records.jsonl: ${name(third)} has no signed record (its signature was removed`);
    },
    scaled(120_000),
  );

  it(
    "the trusted-key list changed: a key removed or replaced fails every game it signed; a forger's own key fails against the published list",
    () => {
      const files = readTarGz(bundle);
      const keys = JSON.parse((files.get('workers/trusted-keys.json') as Buffer).toString('utf8')).keys as Array<{
        public_key: string;
        workers: string[];
      }>;
      const w1 = keys.find((k) => k.workers.includes('w1')) as { public_key: string };
      const w1Games = (reportOf(files).games as ReportGame[]).filter((g) => g.worker_id === 'w1');
      expect(w1Games.length).toBeGreaterThan(0);
      const stranger = publicKeyText(createPublicKey(generateKeyPairSync('ed25519').privateKey));
      const replaced = tampered((f) =>
        f.set(
          'workers/trusted-keys.json',
          Buffer.from(JSON.stringify({ keys: keys.map((k) => (k === w1 ? { ...k, public_key: stranger } : k)) })),
        ),
      );
      const r = verify(replaced, 'keys-replaced');
      expect(r.code, r.out).toBe(1);
      for (const g of w1Games)
        expect(r.out).toContain(
          `FAIL  workers/trusted-keys.json: ${named(g)} is signed by ${w1.public_key.slice(0, 20)}…, a key not among the bundle's trusted workers`,
        );

      // A forger who rewrites a game's result and re-signs it with a key of its own, listed in place of w1's: the bundle
      // is self-consistent, so only the reader's published list of trusted workers catches it.
      const forger = generateKeyPairSync('ed25519').privateKey;
      const forgerKey = publicKeyText(createPublicKey(forger));
      const game =
        w1Games.find((g) => g.termination === 'completed' && g.result.placements?.[0] !== g.result.placements?.[1]) ?? w1Games[0];
      const g = game as ReportGame;
      const forged = tampered((f) => {
        const lines = linesOf(f);
        const report = reportOf(f);
        for (const line of lines.filter((l) => l.attestation.result.worker_key === w1.public_key)) {
          line.attestation.result.worker_key = forgerKey;
          if (line.game_index === g.game_index && line.attempt === g.attempt)
            line.attestation.result.placements = swap(line.attestation.result.placements as number[]);
          line.signature = signed(forger, line.attestation);
          const entry = (report.games as ReportGame[]).find(
            (x) => x.game_index === line.game_index && x.attempt === line.attempt,
          ) as ReportGame;
          entry.result.placements = line.attestation.result.placements as number[];
          entry.worker_key = forgerKey;
          entry.worker_signature = line.signature;
        }
        setLines(f, lines);
        f.set('reports/report.json', Buffer.from(JSON.stringify(report, null, 2)));
        f.set(
          'workers/trusted-keys.json',
          Buffer.from(JSON.stringify({ keys: keys.map((k) => (k === w1 ? { ...k, public_key: forgerKey } : k)) })),
        );
      });
      const pinned = verify(forged, 'forged-pinned', ['--trusted-workers', path.join(offline, 'published.txt')]);
      expect(pinned.code, pinned.out).toBe(1);
      expect(pinned.out).toContain(
        `FAIL  workers/trusted-keys.json: ${named(g)} is signed by ${forgerKey.slice(0, 20)}…, a key not in the trusted workers file given to verify`,
      );
      // Without the published list the forger's key is just another listed key; verify says which keys vouched.
      const unpinned = verify(forged, 'forged');
      expect(unpinned.out).toContain(`w1 ${forgerKey.slice(0, 20)}…`);
    },
    scaled(120_000),
  );

  it(
    'a worker-played game made to look local keeps failing while its signed record is in the bundle',
    () => {
      let game: ReportGame | undefined;
      const copy = tampered((files) => {
        game = target(files);
        editReportEntry(files, game, (entry) => {
          entry.worker_id = null;
          entry.worker_key = null;
          entry.worker_signature = null;
        });
      });
      const r = verify(copy, 'looks-local');
      const g = game as ReportGame;
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain(
        `FAIL  reports/report.json: game ${g.game_index} attempt ${g.attempt} says it was played locally, but workers/signed-records.jsonl has a worker's signed record of it`,
      );
    },
    scaled(120_000),
  );
});

function signed(key: KeyObject, attestation: unknown): string {
  return sign(null, Buffer.from(canonicalJson(attestation)), key).toString('base64');
}

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
