// Write-then-rename, so a crash or a full disk never leaves a half-written export or a truncated secrets file behind:
// readers see either the old file or the complete new one.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface AtomicWriteOptions {
  /** Permission bits for a new file (ignored on Windows); the temp file is created with them, so there is no window. */
  mode?: number;
}

function tempPathFor(file: string): string {
  // Same folder as the target: rename is only atomic within one file system.
  return path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
}

export async function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const temp = tempPathFor(file);
  // 'wx': never follow or clobber something already sitting at the temp name.
  const handle = await fs.promises.open(temp, 'wx', options.mode ?? 0o666);
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

export function writeFileAtomicSync(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const temp = tempPathFor(file);
  const fd = fs.openSync(temp, 'wx', options.mode ?? 0o666);
  try {
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
