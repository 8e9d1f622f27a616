// The agents' PATH goes into the run manifest, which is exported and bundled: it names no folder of this machine.
import { describe, expect, it } from 'vitest';
import { pathRedactor, portableSearchPath } from '../../../engine/tournaments/exports/path-redaction.js';

describe.runIf(process.platform !== 'win32')('portableSearchPath', () => {
  const redact = pathRedactor([
    { dir: '/home/ann/study', label: '<definition>' },
    { dir: '/home/ann', label: '~' },
  ]);

  it('labels known folders, keeps system folders and shortens every other absolute folder', () => {
    expect(
      portableSearchPath(
        '/home/ann/study/bin:/home/ann/.nvm/versions/node/v20/bin:/srv/checkout/node_modules/.bin:/usr/local/bin:/usr/bin:/bin:/opt/homebrew/bin:relative/bin',
        redact,
      ),
    ).toBe('<definition>/bin:~/.nvm/versions/node/v20/bin:…/node_modules/.bin:/usr/local/bin:/usr/bin:/bin:/opt/homebrew/bin:relative/bin');
  });

  it('keeps the order and the number of entries, empty ones included', () => {
    const out = portableSearchPath('/a/b/c/d::/usr/bin', redact);
    expect(out.split(':')).toEqual(['…/c/d', '', '/usr/bin']);
  });
});
