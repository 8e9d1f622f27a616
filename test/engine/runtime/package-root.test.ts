import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinAgentFolders, contentRoot, packageRoot } from '../../../engine/runtime/package-root.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('package root and shipped content', () => {
  it('finds the repository from source and lists its shipped agent folders', () => {
    const root = packageRoot();
    expect(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).name).toBe('local-arena');
    expect(contentRoot(root)).toBe(root);
    const ids = builtinAgentFolders(root).map((f) => f.id);
    expect(ids).toContain('builtin:challenges/psi/agents');
    expect(ids).toContain('builtin:examples/agents');
  });

  it('reads shipped content from the unpacked folder beside a packaged app archive', () => {
    const resources = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-resources-'));
    made.push(resources);
    const archive = path.join(resources, 'app.asar');
    fs.writeFileSync(archive, 'not a real archive');
    // Without the unpacked folder there is nothing better to offer.
    expect(contentRoot(archive)).toBe(archive);
    fs.mkdirSync(path.join(`${archive}.unpacked`, 'examples', 'agents'), { recursive: true });
    expect(contentRoot(archive)).toBe(`${archive}.unpacked`);
    expect(builtinAgentFolders(contentRoot(archive))).toEqual([
      { id: 'builtin:examples/agents', path: path.join(`${archive}.unpacked`, 'examples', 'agents') },
    ]);
  });
});
