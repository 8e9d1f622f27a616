// Reads a definition file (agent manifest, scenario, policy, tournament) with a size cap checked before any parsing,
// so a huge or endless file (a 60 MB agent.yaml, a symlink to /dev/zero or a FIFO) fails fast with a clear message.
import fs from 'node:fs';

/** 1 MiB: the largest shipped definition is a few kB. */
export const MAX_DEFINITION_BYTES = 1024 * 1024;

export class DefinitionReadError extends Error {
  override name = 'DefinitionReadError';
}

const mib = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MiB`;

/** The file's text, or a DefinitionReadError naming the problem (never the content). */
export function readDefinitionText(file: string, maxBytes = MAX_DEFINITION_BYTES): string {
  let fd: number;
  try {
    // Non-blocking, so a FIFO planted in place of the file cannot hang the engine on open.
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DefinitionReadError(code === 'ENOENT' ? 'file not found' : `cannot read: ${code ?? (error as Error).message}`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new DefinitionReadError('not a regular file');
    if (stat.size > maxBytes) throw new DefinitionReadError(`file is ${mib(stat.size)}; definition files are limited to ${mib(maxBytes)}`);
    // The size can change between fstat and read: read at most one byte past the cap and check again.
    const buffer = Buffer.allocUnsafe(maxBytes + 1);
    let length = 0;
    for (;;) {
      const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) throw new DefinitionReadError(`file is larger than ${mib(maxBytes)}; definition files are limited to that`);
    }
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}
