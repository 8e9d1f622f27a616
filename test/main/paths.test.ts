import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveShellDataDir, shellPaths } from '../../main/paths.js';

describe('shell paths', () => {
  it('finds the renderer, the bundled preload and the engine entry under dist/', () => {
    expect(shellPaths('/app/dist')).toEqual({
      rendererDir: path.join('/app/dist', 'renderer'),
      preloadPath: path.join('/app/dist', 'preload', 'index.cjs'),
      engineEntry: path.join('/app/dist', 'engine', 'entry.js'),
    });
  });

  it('uses --data-dir, then ARENA_DATA_DIR, then the folder shared with the CLI', () => {
    expect(resolveShellDataDir(['electron', '.', '--data-dir', '/tmp/a'], { ARENA_DATA_DIR: '/tmp/b' }, '/home/u/.config')).toBe('/tmp/a');
    expect(resolveShellDataDir(['electron', '--data-dir=/tmp/c'], {}, '/home/u/.config')).toBe('/tmp/c');
    expect(resolveShellDataDir(['electron'], { ARENA_DATA_DIR: '/tmp/b' }, '/home/u/.config')).toBe('/tmp/b');
    expect(resolveShellDataDir(['electron'], { ARENA_DATA_DIR: '' }, '/home/u/.config')).toBe('/home/u/.config/Local Arena');
  });
});
