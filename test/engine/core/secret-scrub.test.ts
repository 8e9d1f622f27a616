// The one scrubber: exact values, fragments at a cut edge, scrub-before-cap, deep values; and the model agent's
// provider errors, which used to be capped before the key was scrubbed (leaving its prefix).
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createScrubber, MIN_SECRET_LENGTH } from '../../../engine/core/secret-scrub.js';
import { baseFastifyOptions } from '../../../engine/http/fastify-base.js';
import { toProviderError } from '../../../engine/model-agent/provider.js';
import { registerSecret, secretScrubber } from '../../../engine/runtime/known-secrets.js';

const KEY = 'sk-test-0123456789abcdef0123456789abcdef';

describe('createScrubber', () => {
  const scrub = createScrubber([{ name: 'OPENAI_API_KEY', value: KEY }, 'plain-secret-value']);

  it('replaces every occurrence, named or not, and leaves other text alone', () => {
    expect(scrub(`a ${KEY} b ${KEY}`)).toBe('a <secret:OPENAI_API_KEY> b <secret:OPENAI_API_KEY>');
    expect(scrub('x plain-secret-value y')).toBe('x <secret> y');
    expect(scrub('nothing to see')).toBe('nothing to see');
  });

  it('ignores values too short to be secrets', () => {
    const short = createScrubber(['abc']);
    expect('abc'.length).toBeLessThan(MIN_SECRET_LENGTH);
    expect(short('abc abc')).toBe('abc abc');
    expect(short.size).toBe(0);
  });

  it('removes the fragment a cut left at the edge of a head or a tail', () => {
    const tail = KEY.slice(10);
    expect(scrub(`${tail} and the rest`, { start: true })).toBe('<secret:OPENAI_API_KEY> and the rest');
    const head = `the start ${KEY.slice(0, 15)}`;
    expect(scrub(head, { end: true })).toBe('the start <secret:OPENAI_API_KEY>');
    // Without `cut`, a fragment is ordinary text (nothing says it was cut).
    expect(scrub(head)).toBe(head);
  });

  it('scrubs before it caps: no prefix of the key survives a cap that falls inside it', () => {
    const text = `${'x'.repeat(290)} ${KEY} more`;
    const capped = scrub.capped(text, 300);
    expect(capped).not.toContain(KEY.slice(0, 8));
    expect(capped.length).toBeLessThanOrEqual(301);
  });

  it('deep-scrubs JSON-like values, keys included, and keeps other types', () => {
    const value = { detail: `k=${KEY}`, list: [KEY, 3, null, true], nested: { [KEY]: 'v' } };
    expect(scrub.deep(value)).toEqual({
      detail: 'k=<secret:OPENAI_API_KEY>',
      list: ['<secret:OPENAI_API_KEY>', 3, null, true],
      nested: { '<secret:OPENAI_API_KEY>': 'v' },
    });
    expect(value.detail).toBe(`k=${KEY}`);
  });
});

describe('the process-wide scrubber', () => {
  it('scrubs what was registered, and extra values on request', () => {
    registerSecret('admin-token', 'registered-admin-token-value');
    expect(secretScrubber()('t=registered-admin-token-value')).toBe('t=<secret:admin-token>');
    expect(secretScrubber([{ name: 'X', value: 'extra-value-123' }])('extra-value-123 registered-admin-token-value')).toBe(
      '<secret:X> <secret:admin-token>',
    );
    // Extras are not remembered.
    expect(secretScrubber()('extra-value-123')).toBe('extra-value-123');
  });
});

describe('engine logs', () => {
  it('hold no registered secret, in messages or in logged errors', async () => {
    registerSecret('LOG_TEST_KEY', 'log-secret-value-5e6f7a');
    let out = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        out += String(chunk);
        done();
      },
    });
    const options = baseFastifyOptions('info');
    const app = Fastify({ ...options, logger: { ...options.logger, stream } });
    await app.ready();
    app.log.warn('agent said log-secret-value-5e6f7a');
    app.log.error({ err: new Error('boom: log-secret-value-5e6f7a') }, 'scoring failed');
    await app.close();
    expect(out).toContain('<secret:LOG_TEST_KEY>');
    expect(out).toContain('scoring failed');
    expect(out).not.toContain('log-secret-value');
  });
});

describe('model agent provider errors', () => {
  class APIUserAbortError extends Error {}
  class APIConnectionError extends Error {}
  class APIConnectionTimeoutError extends APIConnectionError {}
  class APIError extends Error {
    constructor(
      readonly status: number,
      message: string,
      readonly headers: { get(name: string): string | null } | undefined = undefined,
    ) {
      super(message);
    }
  }
  const sdk = { APIUserAbortError, APIConnectionError, APIConnectionTimeoutError, APIError };

  it('scrubs the key before capping a long error text, so its prefix is not kept', () => {
    // A proxy echoes the request's key right where the 300-character cap falls.
    const echoed = `${'e'.repeat(268)} Authorization: Bearer ${KEY} rejected`;
    for (const error of [new APIError(401, echoed), new APIConnectionError(echoed), new Error(echoed)]) {
      const message = toProviderError(error, sdk, createScrubber([KEY])).message;
      expect(message).not.toContain(KEY.slice(0, 6));
      expect(message.length).toBeLessThan(340);
    }
  });
});
