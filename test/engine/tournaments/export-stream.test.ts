// Streamed export files: every piece redacted on its own and the file the exact concatenation, written in chunks
// (not one system call per piece: events.jsonl has a line per chat message of every game), under a temporary name
// until complete (the engine serves downloads while an export is being written).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { streamFile, sweepStalePartials } from '../../../engine/tournaments/exports/export-stream.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('streamFile', () => {
  it('writes the redacted pieces in order, a few chunks for thousands of lines', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-export-stream-'));
    dirs.push(dir);
    const file = path.join(dir, 'events.jsonl');
    const writes = vi.spyOn(fs, 'writeSync');
    const lines = Array.from({ length: 5000 }, (_, i) => `{"line":${i},"path":"/secret/place/${i}"}\n`);
    await streamFile(
      file,
      (text) => text.replaceAll('/secret/place', '<folder>'),
      async (write) => {
        for (const line of lines) write(line);
      },
    );
    const expected = lines.map((l) => l.replaceAll('/secret/place', '<folder>')).join('');
    expect(fs.readFileSync(file, 'utf8')).toBe(expected);
    expect(expected.length).toBeGreaterThan(2 * 64 * 1024);
    // 5,000 pieces, about 180 KiB: a handful of writes.
    expect(writes.mock.calls.length).toBeLessThanOrEqual(6);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('an empty fill leaves an empty file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-export-stream-'));
    dirs.push(dir);
    const file = path.join(dir, 'empty.csv');
    await streamFile(
      file,
      (t) => t,
      async () => {},
    );
    expect(fs.readFileSync(file, 'utf8')).toBe('');
  });

  it('a reader sees the previous file until the new one is complete, and a failed fill keeps the previous file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-export-stream-'));
    dirs.push(dir);
    const file = path.join(dir, 'games.csv');
    fs.writeFileSync(file, 'old\n');
    const big = 'x'.repeat(100 * 1024);
    let seenMidway = '';
    await streamFile(
      file,
      (t) => t,
      async (write) => {
        write(big); // past a chunk: written to disk already
        await new Promise((resolve) => setImmediate(resolve));
        seenMidway = fs.readFileSync(file, 'utf8');
        write('end\n');
      },
    );
    expect(seenMidway).toBe('old\n');
    expect(fs.readFileSync(file, 'utf8')).toBe(`${big}end\n`);
    await expect(
      streamFile(
        file,
        (t) => t,
        async (write) => {
          write(big);
          throw new Error('storage failed');
        },
      ),
    ).rejects.toThrow('storage failed');
    expect(fs.readFileSync(file, 'utf8')).toBe(`${big}end\n`);
    // No partial file is left behind.
    expect(fs.readdirSync(dir)).toEqual(['games.csv']);
  });

  it('sweeps the partial files a killed export left, not one being written nor the exports', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-export-stream-'));
    dirs.push(dir);
    const stale = path.join(dir, 'events.jsonl.0a1b2c3d.partial');
    const fresh = path.join(dir, 'games.csv.4e5f6a7b.partial');
    const old = path.join(dir, 'report.json');
    for (const f of [stale, fresh, old]) fs.writeFileSync(f, 'x');
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    fs.utimesSync(stale, hourAgo, hourAgo);
    fs.utimesSync(old, hourAgo, hourAgo);
    sweepStalePartials(dir);
    expect(fs.readdirSync(dir).sort()).toEqual(['games.csv.4e5f6a7b.partial', 'report.json']);
  });
});
