// Exports from the UI: the page hands over content and a suggested name, the user picks the place in a native dialog,
// and main writes the file. The page never supplies a path, so it cannot write anywhere the user did not choose.
import path from 'node:path';
import type { SaveFileRequest, SaveFileResult } from '../engine/contract/channels.js';
import { writeFileAtomic } from './atomic-write.js';

/** Structural subsets of Electron's dialog options and result, so the handler is tested with a fake dialog. */
export interface SaveDialogOptionsLike {
  title: string;
  defaultPath: string;
  filters: { name: string; extensions: string[] }[];
  properties: ('createDirectory' | 'showOverwriteConfirmation')[];
}
export type ShowSaveDialog = (options: SaveDialogOptionsLike) => Promise<{ canceled: boolean; filePath?: string | undefined }>;

export interface SaveFileDeps {
  /** Shows the dialog attached to the app window (main binds the parent window). */
  showSaveDialog: ShowSaveDialog;
  /** Folders to offer first, in order of preference; the first one that exists wins. */
  candidateDirs: () => string[];
  dirExists: (dir: string) => boolean;
  write?: (file: string, content: string | Uint8Array) => Promise<void>;
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/**
 * A name that is safe as a file name on every OS: the contract already refuses separators and NUL; this also drops
 * control and Windows-forbidden characters, trailing dots and spaces, and device names like NUL or COM1.
 */
export function sanitizeFileName(name: string): string {
  let clean = Array.from(name, (ch) => (ch.charCodeAt(0) < 0x20 || '<>:"/\\|?*'.includes(ch) ? '_' : ch)).join('');
  clean = clean.replace(/[. ]+$/, '').trim();
  if (clean === '' || /^\.+$/.test(clean)) return 'export';
  if (WINDOWS_RESERVED.test(clean)) clean = `_${clean}`;
  return clean.slice(0, 200);
}

export function createSaveFileHandler(deps: SaveFileDeps): (request: SaveFileRequest) => Promise<SaveFileResult> {
  const write = deps.write ?? ((file: string, content: string | Uint8Array) => writeFileAtomic(file, content));
  return async (request) => {
    const dir = deps.candidateDirs().find((candidate) => candidate !== '' && deps.dirExists(candidate));
    const name = sanitizeFileName(request.suggestedName);
    const result = await deps.showSaveDialog({
      title: 'Export',
      defaultPath: dir ? path.join(dir, name) : name,
      filters: [{ name: request.filter.name, extensions: [...request.filter.extensions] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });
    if (result.canceled || !result.filePath) return { saved: false, path: null };
    const target = path.resolve(result.filePath);
    await write(target, request.encoding === 'base64' ? Buffer.from(request.content, 'base64') : request.content);
    return { saved: true, path: target };
  };
}
