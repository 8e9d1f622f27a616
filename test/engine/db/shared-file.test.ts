// Several engines on one SQLite file (two `arena run`s on a new folder, `arena serve` beside `arena run`): real
// processes, released together, so their transactions really interleave. A transaction that reads before it writes
// must wait for the other writer (busy timeout) instead of failing at once with "database is locked", and a fresh
// file's migrations must be applied once, not raced.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir } from '../tournaments/helpers.js';

const STORE = path.join(ROOT, 'dist/engine/db/store.js');

// A child opens the store when told to on stdin, then appends `count` lines to one chat channel (each append reads
// the channel's last index, then inserts), one transaction each; it prints what it managed and the errors it met.
const CHILD = `
const { openStore } = await import(process.argv[2]);
const [file, channel, count] = process.argv.slice(3);
await new Promise((resolve) => process.stdin.once('data', resolve));
const errors = [];
let store;
try {
  store = openStore({ file });
} catch (error) {
  console.log(JSON.stringify({ opened: false, appended: 0, errors: [String(error.message)] }));
  process.exit(0);
}
let appended = 0;
for (let i = 0; i < Number(count); i++) {
  try {
    store.transaction(() => store.chat.append(channel, 'w' + process.pid, 'line ' + i, Date.now()));
    appended++;
  } catch (error) {
    errors.push(String(error.message));
  }
  if (i % 25 === 0) await new Promise((resolve) => setImmediate(resolve));
}
store.close();
console.log(JSON.stringify({ opened: true, appended, errors: errors.slice(0, 3), errorCount: errors.length }));
`;

interface ChildReport {
  opened: boolean;
  appended: number;
  errors: string[];
  errorCount?: number;
}

let dir: string;
let script: string;

beforeAll(() => {
  if (!fs.existsSync(STORE))
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore', timeout: 240_000 });
  dir = tempDir('arena-shared-file-');
  script = path.join(dir, 'writer.mjs');
  fs.writeFileSync(script, CHILD);
}, 250_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Starts `n` writers on `file`, releases them together once all are loaded, and collects their reports. */
async function writers(n: number, file: string, channel: string, count: number): Promise<ChildReport[]> {
  const children = Array.from({ length: n }, () =>
    spawn(process.execPath, [script, STORE, file, channel, String(count)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] }),
  );
  const reports = children.map(
    (child) =>
      new Promise<ChildReport>((resolve, reject) => {
        let out = '';
        let err = '';
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
        child.on('close', (code) => {
          clearTimeout(timer);
          const line = out.trim().split('\n').at(-1);
          if (code !== 0 || !line) reject(new Error(`writer exited ${code}: ${err}`));
          else resolve(JSON.parse(line) as ChildReport);
        });
      }),
  );
  // Module loading takes a while; the release is what makes the starts collide.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  for (const child of children) child.stdin.end('go\n');
  return Promise.all(reports);
}

describe('engines sharing one database file', () => {
  it('open a new file together: every one opens it, and each migration is recorded once', async () => {
    for (let round = 0; round < 3; round++) {
      const file = path.join(dir, `fresh-${round}.sqlite`);
      const reports = await writers(4, file, 'challenge_fresh', 1);
      for (const report of reports) expect(report).toMatchObject({ opened: true, appended: 1, errors: [] });
      const db = new Database(file, { readonly: true });
      try {
        const names = (db.prepare('SELECT name FROM schema_migrations').all() as { name: string }[]).map((r) => r.name);
        expect(new Set(names).size).toBe(names.length);
        expect(names.length).toBeGreaterThan(10);
      } finally {
        db.close();
      }
    }
  }, 120_000);

  it('append to one channel together: no "database is locked", and the indices stay gap-free', async () => {
    const file = path.join(dir, 'busy.sqlite');
    const reports = await writers(3, file, 'challenge_busy', 1500);
    for (const report of reports) expect(report).toMatchObject({ opened: true, appended: 1500, errors: [] });
    const db = new Database(file, { readonly: true });
    try {
      const rows = db.prepare("SELECT idx FROM chat_messages WHERE channel = 'challenge_busy' ORDER BY idx").all() as { idx: number }[];
      expect(rows.length).toBe(4500);
      expect(rows.every((row, i) => row.idx === i + 1)).toBe(true);
    } finally {
      db.close();
    }
  }, 120_000);
});
