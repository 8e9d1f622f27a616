// Saving an export: the desktop shell asks main for a save dialog (the page never names a path); a plain browser gets
// an ordinary download through an anchor with the download attribute.
import type { ArenaApi, SaveFileRequest, SaveFileResult } from '../../../engine/contract/channels.js';

const MIME: Record<string, string> = {
  json: 'application/json',
  jsonl: 'application/x-ndjson',
  md: 'text/markdown',
  csv: 'text/csv',
};

export async function exportFile(request: SaveFileRequest, shell: ArenaApi | undefined): Promise<SaveFileResult> {
  if (shell) return shell.saveFile(request);
  const extension = request.suggestedName.split('.').pop() ?? '';
  const blob = new Blob([request.content], { type: `${MIME[extension] ?? 'text/plain'};charset=utf-8` });
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = request.suggestedName;
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // Revoked a moment later: the browser has read the blob by then.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return { saved: true, path: null };
}
