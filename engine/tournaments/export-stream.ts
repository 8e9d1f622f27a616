// Export files too big to hold in memory (a 100,000-game run) are written a piece at a time.

import fs from 'node:fs';
import { PRIVATE_FILE_MODE, tightenIfPresent } from '../runtime/private-files.js';

/** A file written piece by piece, each piece redacted (no local folder spans two pieces: they end on a line). */
export function streamFile(file: string, redact: (text: string) => string, fill: (write: (text: string) => void) => void): void {
  const fd = fs.openSync(file, 'w', PRIVATE_FILE_MODE);
  try {
    fill((text) => fs.writeSync(fd, redact(text)));
  } finally {
    fs.closeSync(fd);
  }
  tightenIfPresent(file);
}
