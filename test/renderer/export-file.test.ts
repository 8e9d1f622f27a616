import { describe, expect, it } from 'vitest';
import { type SaveFileRequest, SaveFileRequestSchema } from '../../engine/contract/channels.js';
import { exportFile, mimeTypeFor, safeFileName } from '../../renderer/src/ui/export-file.js';

describe('export file helper', () => {
  it('turns any suggested name into one the shell contract accepts', () => {
    for (const name of ['a/b\\c.yaml', '', '..', 'x'.repeat(400) + '.jsonl', 'tab\there.csv']) {
      const safe = safeFileName(name);
      const parsed = SaveFileRequestSchema.safeParse({ suggestedName: safe, content: '', filter: { name: 'Any', extensions: ['txt'] } });
      expect(parsed.success, `${JSON.stringify(name)} → ${JSON.stringify(safe)}`).toBe(true);
    }
    expect(safeFileName('reports/run 1.md')).toBe('reports-run 1.md');
    expect(safeFileName('x'.repeat(400) + '.jsonl').endsWith('.jsonl')).toBe(true);
    expect(safeFileName('..', 'fallback.yaml')).toBe('fallback.yaml');
  });

  it('labels downloads with the MIME type of the first extension', () => {
    expect(mimeTypeFor({ name: 'YAML', extensions: ['yaml', 'yml'] })).toBe('application/yaml;charset=utf-8');
    expect(mimeTypeFor({ name: 'JSON Lines', extensions: ['jsonl'] })).toBe('application/x-ndjson;charset=utf-8');
    expect(mimeTypeFor({ name: 'Odd', extensions: ['zzz'] })).toBe('text/plain;charset=utf-8');
  });

  it('hands the content to the desktop shell and reports a cancelled dialog as not saved', async () => {
    const requests: SaveFileRequest[] = [];
    let answer = { saved: true, path: '/tmp/t.yaml' as string | null };
    const shell = {
      saveFile: async (request: SaveFileRequest) => {
        requests.push(request);
        return answer;
      },
    };
    const request = { suggestedName: 'a/b.yaml', content: 'name: t\n', filter: { name: 'YAML', extensions: ['yaml'] } };
    expect(await exportFile(request, shell)).toEqual({ saved: true, path: '/tmp/t.yaml' });
    expect(requests[0]).toEqual({ suggestedName: 'a-b.yaml', content: 'name: t\n', filter: { name: 'YAML', extensions: ['yaml'] } });
    answer = { saved: false, path: null };
    expect(await exportFile(request, shell)).toEqual({ saved: false });
  });

  it('sends bytes (an audit bundle) to the shell as base64 that decodes to the same bytes, large ones included', async () => {
    const requests: SaveFileRequest[] = [];
    const shell = {
      saveFile: async (request: SaveFileRequest) => {
        requests.push(request);
        return { saved: true, path: '/tmp/run.bundle.tar.gz' };
      },
    };
    // Larger than one slice of the encoder, and every byte value.
    const bytes = new Uint8Array(100_003).map((_, i) => (i * 7) % 256);
    const filter = { name: 'Audit bundle', extensions: ['gz'] };
    await exportFile({ suggestedName: 'run.bundle.tar.gz', content: bytes, filter }, shell);
    expect(requests[0]?.encoding).toBe('base64');
    expect(Buffer.from(requests[0]?.content ?? '', 'base64').equals(Buffer.from(bytes))).toBe(true);
    expect(mimeTypeFor(filter)).toBe('application/gzip');
  });

  it('refuses clearly where there is neither a shell nor a document', async () => {
    await expect(
      exportFile({ suggestedName: 'a.txt', content: 'x', filter: { name: 'Text', extensions: ['txt'] } }, undefined),
    ).rejects.toThrow(/desktop app or a browser/);
  });
});
