// A file handed in to be verified (the app's drop zone): is it an audit bundle at all? A file that is not gets one
// clear sentence instead of a list of differences, and it is inflated within a bound first, so a small gzip that
// expands without end (a "zip bomb") is refused before the verifier unpacks it.
import zlib from 'node:zlib';
import { readTarGz } from './bundle.js';

/** Why `archive` is not an audit bundle, or null when it is a gzip'd tar holding bundle.json within `unpackedLimit`. */
export function notABundleReason(archive: Buffer, unpackedLimit: number): string | null {
  if (archive.length === 0) return 'the file is empty';
  try {
    zlib.gunzipSync(archive, { maxOutputLength: unpackedLimit });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      return `it unpacks to more than ${unpackedLimit} bytes, more than a bundle this engine reads`;
    return `it is not a gzip archive (${(error as Error).message})`;
  }
  let files: Map<string, Buffer>;
  try {
    files = readTarGz(archive);
  } catch (error) {
    return `it is not a tar archive (${(error as Error).message})`;
  }
  if (!files.has('bundle.json')) return 'it holds no bundle.json (an audit bundle, as arena export --bundle writes it, does)';
  return null;
}
