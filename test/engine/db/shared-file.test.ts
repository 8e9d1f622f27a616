// Several engines on one SQLite file (two `arena run`s on a new folder, `arena serve` beside `arena run`): real
// processes, released together, so their transactions really interleave. A transaction that reads before it writes
// must wait for the other writer (busy timeout) instead of failing at once with "database is locked", and a fresh
// file's migrations must be applied once, not raced.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../engine/db/store.js';
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

  it('a writer that loses the lock for a whole busy timeout waits again instead of failing (starvation on a busy machine)', async () => {
    const file = path.join(dir, 'starved.sqlite');
    openStore({ file }).close();
    // Another engine takes the write lock and keeps it past one busy timeout of ours, as two busier writers taking turns
    // do on a loaded machine (SQLite's busy handler polls and keeps no queue).
    const holder = spawn(process.execPath, ['-e', HOLDER, file, '1200'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      holder.stdout.once('data', () => resolve());
      holder.once('exit', (code) => reject(new Error(`lock holder exited ${code}`)));
    });
    const store = openStore({ file, busyTimeoutMs: 500 });
    try {
      store.transaction(() => store.chat.append('challenge_starved', 'w', 'after the wait', 1));
      const db = new Database(file, { readonly: true });
      expect(db.prepare("SELECT count(*) AS n FROM chat_messages WHERE channel = 'challenge_starved'").get()).toEqual({ n: 1 });
      db.close();
    } finally {
      store.close();
      holder.kill('SIGKILL');
    }
  }, 60_000);

  it('a new file another engine is still writing in rollback mode: the switch to WAL waits instead of failing at once', async () => {
    // SQLite refuses a reader that would need the write lock of a rollback-mode file at once ("database is locked",
    // no busy wait), which is what the second of two engines opening one new data folder meets.
    const file = path.join(dir, 'converting.sqlite');
    const holder = spawn(process.execPath, ['-e', ROLLBACK_WRITER, file, '300'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      holder.stdout.once('data', () => resolve());
      holder.once('exit', (code) => reject(new Error(`rollback writer exited ${code}`)));
    });
    try {
      const store = openStore({ file, busyTimeoutMs: 2000 });
      try {
        store.transaction(() => store.chat.append('challenge_converting', 'w', 'after the switch', 1));
      } finally {
        store.close();
      }
      const db = new Database(file, { readonly: true });
      try {
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(db.prepare('SELECT count(*) AS n FROM filler').get()).toEqual({ n: 1 });
      } finally {
        db.close();
      }
    } finally {
      holder.kill('SIGKILL');
    }
  }, 60_000);

  it('a lock held for good still ends in "database is locked", after a bounded wait', async () => {
    const file = path.join(dir, 'held.sqlite');
    const store = openStore({ file, busyTimeoutMs: 20 });
    const holder = spawn(process.execPath, ['-e', HOLDER, file, '600000'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      holder.stdout.once('data', () => resolve());
      holder.once('exit', (code) => reject(new Error(`lock holder exited ${code}`)));
    });
    try {
      let ran = 0;
      expect(() => store.transaction(() => ran++)).toThrow(/locked|busy/i);
      expect(ran).toBe(0);
    } finally {
      store.close();
      holder.kill('SIGKILL');
    }
  }, 60_000);
});

// Holds the write lock of the file in argv[1] for argv[2] ms, saying so on stdout once it has it.
const HOLDER = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('held\\n');
setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));
`;

// Writes to the new file in argv[1] in rollback mode (SQLite's default) and commits after argv[2] ms.
const ROLLBACK_WRITER = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.exec('BEGIN IMMEDIATE; CREATE TABLE filler(x); INSERT INTO filler VALUES (1);');
process.stdout.write('writing\\n');
setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));
`;
