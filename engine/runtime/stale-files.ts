// Leftovers of a process that died mid-write (a temporary file it never renamed into place), found by their age: a
// file being written is touched often, so one untouched for long has no writer left. File times are the OS's wall
// clock, so this compares against the wall clock, not an engine's injected one.
import fs from 'node:fs';
import path from 'node:path';

/** Removes the files in `dir` whose names end with `suffix` and that nothing has written for `maxAgeMs`. */
export function removeStaleFiles(dir: string, suffix: string, maxAgeMs: number): void {
  const now = Date.now();
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith(suffix)) continue;
    const file = path.join(dir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > maxAgeMs) fs.rmSync(file, { force: true });
    } catch {
      // Gone already: another process removed or renamed it.
    }
  }
}
