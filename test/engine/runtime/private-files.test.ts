// Owner-only storage: a fresh data directory is 0700, the database with its -wal and -shm files 0600, a tournament's
// reports 0600 in 0700 folders; a data directory left world-readable by an older version is tightened at start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEngine } from '../../../engine/app.js';
import { MILLIONAIRE, play, spec } from '../tournaments/helpers.js';

const posix = process.platform !== 'win32';
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe.runIf(posix)('file modes', () => {
  it('creates the data directory, database, WAL, SHM and reports owner-only', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-modes-'));
    temps.push(parent);
    const dataDir = path.join(parent, 'data');
    // A permissive umask must not matter.
    const previous = process.umask(0o022);
    try {
      const engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
      try {
        const { id } = await play(
          engine,
          spec({
            games_per_pairing: 1,
            agents: [
              { manifest: path.join(MILLIONAIRE, 'truthful/agent.yaml'), id: 'truthful' },
              { manifest: path.join(MILLIONAIRE, 'bluffer/agent.yaml'), id: 'bluffer' },
            ],
          }),
        );
        expect(modeOf(dataDir)).toBe(0o700);
        for (const suffix of ['', '-wal', '-shm']) {
          const file = path.join(dataDir, `arena.sqlite${suffix}`);
          expect(fs.existsSync(file), file).toBe(true);
          expect(modeOf(file), file).toBe(0o600);
        }
        const reports = path.join(dataDir, 'reports', id);
        expect(modeOf(path.join(dataDir, 'reports'))).toBe(0o700);
        expect(modeOf(reports)).toBe(0o700);
        for (const name of ['report.json', 'events.jsonl', 'report.md', 'standings.csv'])
          expect(modeOf(path.join(reports, name)), name).toBe(0o600);
        for (const name of ['rng.key', 'auth.key']) expect(modeOf(path.join(dataDir, 'secrets', name))).toBe(0o600);
      } finally {
        await engine.close();
      }
    } finally {
      process.umask(previous);
    }
  }, 60_000);

  it('tightens a data directory and database an older version left readable', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-modes-old-'));
    temps.push(dataDir);
    fs.chmodSync(dataDir, 0o755);
    fs.writeFileSync(path.join(dataDir, 'arena.sqlite'), '');
    fs.chmodSync(path.join(dataDir, 'arena.sqlite'), 0o644);
    const engine = await startEngine({ dataDir, port: 0, logLevel: 'silent', rendererDir: null, resumeTournaments: false });
    await engine.close();
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'arena.sqlite'))).toBe(0o600);
  });
});
