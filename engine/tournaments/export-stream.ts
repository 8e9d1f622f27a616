// Export files too big to hold in memory (a 100,000-game run) are written a piece at a time, in chunks of up to
// 64 KiB: a write per piece (an events.jsonl line per chat message) would be a system call per line.

import fs from 'node:fs';
import { PRIVATE_FILE_MODE, tightenIfPresent } from '../runtime/private-files.js';

/** Redacted text gathered before one write to the file. */
const CHUNK_CHARS = 64 * 1024;

/** A file written piece by piece, each piece redacted (no local folder spans two pieces: they end on a line). */
export function streamFile(file: string, redact: (text: string) => string, fill: (write: (text: string) => void) => void): void {
  const fd = fs.openSync(file, 'w', PRIVATE_FILE_MODE);
  try {
    let pending: string[] = [];
    let size = 0;
    const flush = (): void => {
      if (pending.length === 0) return;
      fs.writeSync(fd, pending.join(''));
      pending = [];
      size = 0;
    };
    fill((text) => {
      const piece = redact(text);
      pending.push(piece);
      size += piece.length;
      if (size >= CHUNK_CHARS) flush();
    });
    flush();
  } finally {
    fs.closeSync(fd);
  }
  tightenIfPresent(file);
}
