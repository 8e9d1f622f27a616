import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from '../../main/atomic-write.js';
import { createSaveFileHandler, type SaveDialogOptionsLike, sanitizeFileName } from '../../main/save-file.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-save-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const request = {
  suggestedName: 'tournament-01J.jsonl',
  content: '{"type":"game","n":1}\n{"type":"game","n":2}\n',
  filter: { name: 'JSON Lines', extensions: ['jsonl'] },
};

function handler(answer: { canceled: boolean; filePath?: string }, candidates: string[] = []) {
  const shown: SaveDialogOptionsLike[] = [];
  const save = createSaveFileHandler({
    showSaveDialog: async (options) => {
      shown.push(options);
      return answer;
    },
    candidateDirs: () => candidates,
    dirExists: (d) => fs.existsSync(d),
  });
  return { save, shown };
}

describe('save-file handler', () => {
  it('offers the first existing folder, the sanitized name and the filter, then writes what the page sent', async () => {
    const downloads = path.join(dir, 'Downloads');
    const documents = path.join(dir, 'Documents');
    fs.mkdirSync(documents);
    const target = path.join(documents, 'chosen.jsonl');
    const { save, shown } = handler({ canceled: false, filePath: target }, [downloads, documents]);
    await expect(save(request)).resolves.toEqual({ saved: true, path: target });
    expect(shown).toEqual([
      {
        title: 'Export',
        defaultPath: path.join(documents, 'tournament-01J.jsonl'),
        filters: [{ name: 'JSON Lines', extensions: ['jsonl'] }],
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      },
    ]);
    expect(fs.readFileSync(target, 'utf8')).toBe(request.content);
    expect(fs.readdirSync(documents)).toEqual(['chosen.jsonl']);
  });

  it('replaces an existing file the user chose to overwrite', async () => {
    const target = path.join(dir, 'report.md');
    fs.writeFileSync(target, 'old content that is longer than the new one');
    const { save } = handler({ canceled: false, filePath: target });
    await save({ ...request, content: '# new' });
    expect(fs.readFileSync(target, 'utf8')).toBe('# new');
  });

  it('writes the decoded bytes of a base64 request (a binary audit bundle), byte for byte', async () => {
    const target = path.join(dir, 'run.bundle.tar.gz');
    const bytes = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff, 0x00, 0x80, 0x0a]);
    const { save } = handler({ canceled: false, filePath: target });
    await save({ ...request, suggestedName: 'run.bundle.tar.gz', content: bytes.toString('base64'), encoding: 'base64' });
    expect(fs.readFileSync(target).equals(bytes)).toBe(true);
  });

  it('writes nothing when the user cancels', async () => {
    const { save } = handler({ canceled: true, filePath: '' }, [dir]);
    await expect(save(request)).resolves.toEqual({ saved: false, path: null });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('falls back to the bare name when no candidate folder exists', async () => {
    const { save, shown } = handler({ canceled: true }, ['', path.join(dir, 'missing')]);
    await save(request);
    expect(shown[0]?.defaultPath).toBe('tournament-01J.jsonl');
  });

  it('reports a failed write and leaves no temp file behind', async () => {
    const target = path.join(dir, 'no-such-folder', 'x.csv');
    const { save } = handler({ canceled: false, filePath: target });
    await expect(save(request)).rejects.toThrow(/ENOENT/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('writeFileAtomic', () => {
  it('never leaves a half-written target: a failing rename keeps the old file and removes the temp file', async () => {
    const target = path.join(dir, 'taken');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'inside'), 'x');
    // Renaming a file over a non-empty directory fails on every OS.
    await expect(writeFileAtomic(target, 'data')).rejects.toThrow();
    expect(fs.readdirSync(dir)).toEqual(['taken']);
  });
});

describe('sanitizeFileName', () => {
  it('keeps ordinary names and makes hostile ones harmless on every OS', () => {
    expect(sanitizeFileName('games 2026-11-30.csv')).toBe('games 2026-11-30.csv');
    expect(sanitizeFileName('a<b>c:d"e|f?g*h.txt')).toBe('a_b_c_d_e_f_g_h.txt');
    expect(sanitizeFileName('tab\there\u0007.md')).toBe('tab_here_.md');
    expect(sanitizeFileName('report.json. . ')).toBe('report.json');
    expect(sanitizeFileName('NUL.txt')).toBe('_NUL.txt');
    expect(sanitizeFileName('com1')).toBe('_com1');
    expect(sanitizeFileName('..')).toBe('export');
    expect(sanitizeFileName('   ')).toBe('export');
    expect(sanitizeFileName('x'.repeat(255))).toHaveLength(200);
  });

  it('is what the dialog is offered', async () => {
    const showSaveDialog = vi.fn(async () => ({ canceled: true }));
    const save = createSaveFileHandler({ showSaveDialog, candidateDirs: () => [dir], dirExists: () => true });
    await save({ ...request, suggestedName: 'CON' });
    expect(showSaveDialog).toHaveBeenCalledWith(expect.objectContaining({ defaultPath: path.join(dir, '_CON') }));
  });
});
