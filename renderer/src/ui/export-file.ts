// Saving files the UI produced (YAML definitions, reports, CSV, audit bundles): the desktop shell asks main for a native
// save dialog; a plain browser gets an ordinary download. Callers never handle paths, so the page cannot pick where a file lands.
import type { ArenaApi, SaveFileRequest } from '../../../engine/contract/channels.js';

export interface ExportRequest {
  /** A file name, not a path; unsafe characters are replaced (the shell refuses slashes). */
  suggestedName: string;
  /** Text, or the bytes of a binary file (an audit bundle), which cross to the desktop shell as base64. */
  content: string | Uint8Array;
  /** E.g. {name: 'YAML', extensions: ['yaml', 'yml']}; the first extension also picks the download's MIME type. */
  filter: SaveFileRequest['filter'];
}

export type ExportResult = { saved: true; path: string | null } | { saved: false };

const MIME_TYPES: Record<string, string> = {
  json: 'application/json',
  jsonl: 'application/x-ndjson',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  md: 'text/markdown',
  csv: 'text/csv',
  txt: 'text/plain',
  gz: 'application/gzip',
};

/** Keeps a name the shell's contract accepts: no path separators or NUL, at most 255 characters, never empty. */
export function safeFileName(name: string, fallback = 'export.txt'): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what must go.
  const cleaned = name.replace(/[/\\\u0000-\u001f]+/g, '-').trim();
  const usable = cleaned === '' || cleaned === '.' || cleaned === '..' ? fallback : cleaned;
  if (usable.length <= 255) return usable;
  const dot = usable.lastIndexOf('.');
  const extension = dot > 0 && usable.length - dot <= 9 ? usable.slice(dot) : '';
  return usable.slice(0, 255 - extension.length) + extension;
}

export function mimeTypeFor(filter: SaveFileRequest['filter']): string {
  const type = MIME_TYPES[filter.extensions[0] ?? ''] ?? 'text/plain';
  return type === 'application/gzip' ? type : `${type};charset=utf-8`;
}

/** Bytes as base64, in slices so a large bundle does not overflow the argument list of String.fromCharCode. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Just the DOM surface the download needs; typed structurally so this module also compiles for Node-side tests. */
interface DownloadDocument {
  createElement(tag: 'a'): { href: string; download: string; rel: string; click(): void; remove(): void };
  body: { append(node: unknown): void };
}

function browserDownload(request: ExportRequest, name: string): void {
  const doc = (globalThis as { document?: DownloadDocument }).document;
  if (!doc) throw new Error('Saving files needs the desktop app or a browser.');
  const url = URL.createObjectURL(
    new Blob([typeof request.content === 'string' ? request.content : new Uint8Array(request.content)], {
      type: mimeTypeFor(request.filter),
    }),
  );
  const anchor = doc.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.rel = 'noopener';
  doc.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoking at once can cancel the download in some browsers; a minute is plenty for it to start.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Saves `content` (text or bytes) under a user-chosen name. Desktop: the native dialog (`saved: false` when the user cancels).
 * Browser: a download, which the browser may or may not ask about, so `saved` only means "handed over".
 */
export async function exportFile(request: ExportRequest, shell: Pick<ArenaApi, 'saveFile'> | undefined): Promise<ExportResult> {
  const suggestedName = safeFileName(request.suggestedName);
  if (shell) {
    const binary = typeof request.content !== 'string';
    const content = typeof request.content === 'string' ? request.content : bytesToBase64(request.content);
    const result = await shell.saveFile({
      suggestedName,
      content,
      filter: request.filter,
      ...(binary ? { encoding: 'base64' as const } : {}),
    });
    return result.saved ? { saved: true, path: result.path } : { saved: false };
  }
  browserDownload(request, suggestedName);
  return { saved: true, path: null };
}
