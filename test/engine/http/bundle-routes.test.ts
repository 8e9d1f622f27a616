// Audit bundles over the admin API, as the app uses them: a real engine plays a real PSI run, its bundle downloads,
// and a bundle file sent to /bundles/verify gets exactly what `arena verify --json` prints for the same file (the
// real CLI is spawned), passing for the download and naming the file for a tampered copy. A file that is not a
// bundle, a gzip bomb and an oversized body get a 4xx that says what is wrong; the route is admin-only.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PREFIX } from '../../../engine/contract/admin.js';
import { BUNDLE_UPLOAD_LIMIT_BYTES, BundleVerificationSchema } from '../../../engine/contract/audit-bundle.js';
import { readTarGz, verifyBundle, writeTarGz } from '../../../engine/tournaments/bundle/bundle.js';
import { notABundleReason } from '../../../engine/tournaments/bundle/bundle-file.js';
import { startTestServer, type TestServer } from '../../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const PSI = path.join(ROOT, 'challenges/psi/agents');

let server: TestServer;
let id: string;
let archive: Buffer;

const admin = (route: string, init: RequestInit = {}) =>
  fetch(`${server.url}${ADMIN_PREFIX}${route}`, {
    ...init,
    headers: { authorization: `Bearer ${server.token}`, ...(init.headers as Record<string, string> | undefined) },
  });
const verify = (body: Buffer | string, type = 'application/gzip') =>
  admin('/bundles/verify', {
    method: 'POST',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers: { 'content-type': type },
  });

beforeAll(async () => {
  server = await startTestServer();
  const created = await admin('/tournaments', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      spec: {
        name: 'bundle routes',
        challenge: 'psi',
        format: 'round-robin',
        games_per_pairing: 1,
        concurrency: 1,
        seed: 'bundle-1',
        agents: [
          { manifest: path.join(PSI, 'honest-exact/agent.yaml'), id: 'honest' },
          { manifest: path.join(PSI, 'greedy-overclaim/agent.yaml'), id: 'greedy' },
        ],
        limits: { move_seconds: 10, game_seconds: 30 },
      },
      start: false,
    }),
  });
  id = ((await created.json()) as { id: string }).id;
  const done = new Promise<void>((resolve) => {
    server.engine.tournaments.subscribe(id, (e) => {
      if (e.event === 'finished' || e.event === 'failed') resolve();
    });
  });
  expect(
    (await admin(`/tournaments/${id}/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status,
  ).toBe(200);
  await done;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

describe('audit bundles over the admin API', () => {
  it('downloads a finished run as a bundle that verifies, with the agent files on request', async () => {
    const res = await admin(`/tournaments/${id}/bundle`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${id}.bundle.tar.gz"`);
    archive = Buffer.from(await res.arrayBuffer());
    expect([...readTarGz(archive).keys()]).toContain('reports/report.json');
    expect([...readTarGz(archive).keys()].some((n) => n.startsWith('agents/'))).toBe(false);
    const withFiles = readTarGz(Buffer.from(await (await admin(`/tournaments/${id}/bundle?with_files=true`)).arrayBuffer()));
    expect(withFiles.has('agents/honest/agent.yaml')).toBe(true);
    const bad = await admin(`/tournaments/${id}/bundle?with_files=yes`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/with_files/);
    expect((await admin('/tournaments/no-such-run/bundle')).status).toBe(404);
  });

  it('verifies a bundle exactly as arena verify does: the download passes, a tampered copy fails naming the file', async () => {
    const file = path.join(server.dataDir, 'run.bundle.tar.gz');
    fs.writeFileSync(file, archive);
    const cli = spawnSync(process.execPath, [path.join(ROOT, 'bin/arena.js'), 'verify', file, '--json'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const res = await verify(archive);
    expect(res.status).toBe(200);
    // Compared raw: whatever verifyBundle returns (more fields as it grows) reaches the app unchanged.
    const raw = await res.json();
    const body = BundleVerificationSchema.parse(raw);
    expect(body.ok).toBe(true);
    expect(body.problems).toEqual([]);
    expect(body.checks.length).toBeGreaterThan(2);
    expect(cli.status).toBe(0);
    expect(raw).toEqual(JSON.parse(cli.stdout));

    // One game's placements swapped in report.json, the index left as it was.
    const files = readTarGz(archive);
    const report = JSON.parse((files.get('reports/report.json') as Buffer).toString('utf8'));
    report.games[0].result.placements = [...report.games[0].result.placements].reverse();
    files.set('reports/report.json', Buffer.from(JSON.stringify(report)));
    const tampered = writeTarGz([...files].map(([p, data]) => ({ path: p, data })));
    const bad = await verify(tampered, 'application/octet-stream');
    expect(bad.status).toBe(200);
    const failedRaw = await bad.json();
    const failed = BundleVerificationSchema.parse(failedRaw);
    expect(failed.ok).toBe(false);
    expect(failed.problems.some((p) => p.startsWith('reports/report.json: content changed'))).toBe(true);
    expect(failedRaw).toEqual(verifyBundle(tampered));
  }, 120_000);

  it('answers 400 naming the problem for a file that is not a bundle, 413 over the limit, 401 without the token', async () => {
    const notGzip = await verify('just some text, not an archive');
    expect(notGzip.status).toBe(400);
    expect(((await notGzip.json()) as { error: string }).error).toMatch(/^Not an audit bundle: it is not a gzip archive/);
    const noIndex = await verify(writeTarGz([{ path: 'notes.txt', data: Buffer.from('hello') }]));
    expect(noIndex.status).toBe(400);
    expect(((await noIndex.json()) as { error: string }).error).toMatch(/^Not an audit bundle: it holds no bundle\.json/);
    const empty = await verify(Buffer.alloc(0));
    expect(empty.status).toBe(400);
    const json = await verify('{"ok":true}', 'application/json');
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toMatch(/send the bundle file itself as the body/);

    const huge = await verify(Buffer.alloc(BUNDLE_UPLOAD_LIMIT_BYTES + 1));
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { error: string }).error).toBe(`Request body too large (limit ${BUNDLE_UPLOAD_LIMIT_BYTES} bytes)`);

    const anonymous = await fetch(`${server.url}${ADMIN_PREFIX}/bundles/verify`, {
      method: 'POST',
      body: new Uint8Array(archive),
      headers: { 'content-type': 'application/gzip' },
    });
    expect(anonymous.status).toBe(401);
    // Other admin routes still read JSON and keep the listener's own limit.
    const big = await admin('/tournaments/validate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(300_000),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: string }).error).toBe('Request body too large (limit 262144 bytes)');
  });

  it('refuses a gzip that inflates past the bound before unpacking it', () => {
    const bomb = zlib.gzipSync(Buffer.alloc(4 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(10_000);
    expect(notABundleReason(bomb, 1024 * 1024)).toMatch(/unpacks to more than 1048576 bytes/);
    expect(notABundleReason(archive, 1024 * 1024)).toBeNull();
  });
});
