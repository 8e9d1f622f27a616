// Export files too big to hold in memory (a 100,000-game run) are written a piece at a time, in chunks of up to
// 64 KiB: a write per piece (an events.jsonl line per chat message) would be a system call per line. Such a file takes
// seconds to write and the engine keeps serving meanwhile, so it is written under a temporary name and renamed into
// place when complete: a reader (a download, an audit bundle) gets the previous file or the new one, never half.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { PRIVATE_FILE_MODE, tightenIfPresent } from '../../runtime/private-files.js';
import { removeStaleFiles } from '../../runtime/stale-files.js';

/** Redacted text gathered before one write to the file. */
const CHUNK_CHARS = 64 * 1024;
const PARTIAL_SUFFIX = '.partial';
/**
 * A partial file untouched this long was left by a process that died mid-export (one being written gets a write at
 * least every 64 KiB of output), so it is removed; a younger one may belong to another engine on the same folder.
 */
const STALE_PARTIAL_MS = 10 * 60 * 1000;

/** Removes the partial files a killed export left in `dir`. */
export function sweepStalePartials(dir: string): void {
  removeStaleFiles(dir, PARTIAL_SUFFIX, STALE_PARTIAL_MS);
}

/** A file written piece by piece, each piece redacted (no local folder spans two pieces: they end on a line). */
export async function streamFile(
  file: string,
  redact: (text: string) => string,
  fill: (write: (text: string) => void) => Promise<void>,
): Promise<void> {
  const partial = `${file}.${randomBytes(4).toString('hex')}${PARTIAL_SUFFIX}`;
  const fd = fs.openSync(partial, 'w', PRIVATE_FILE_MODE);
  let complete = false;
  try {
    let pending: string[] = [];
    let size = 0;
    const flush = (): void => {
      if (pending.length === 0) return;
      fs.writeSync(fd, pending.join(''));
      pending = [];
      size = 0;
    };
    await fill((text) => {
      const piece = redact(text);
      pending.push(piece);
      size += piece.length;
      if (size >= CHUNK_CHARS) flush();
    });
    flush();
    complete = true;
  } finally {
    fs.closeSync(fd);
    if (complete) fs.renameSync(partial, file);
    else fs.rmSync(partial, { force: true });
  }
  tightenIfPresent(file);
}
