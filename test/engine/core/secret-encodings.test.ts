// A granted secret echoed in an encoding is scrubbed like the plain value: hex (either case), base64 standard and
// URL-safe wherever it sits in a longer encoded text, URL-encoding; a seat key by its shape, known or not.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createScrubber, encodings } from '../../../engine/core/secret-scrub.js';

const SECRET = 'sk-live/Ab+9 ünïcode?&=';
const scrub = createScrubber([{ name: 'API_KEY', value: SECRET }]);

describe('encoded secrets', () => {
  it('scrubs hex, base64 (std and URL-safe, every alignment) and URL-encoded forms', () => {
    const bytes = Buffer.from(SECRET);
    const forms = [
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
      bytes.toString('base64'),
      bytes.toString('base64url'),
      encodeURIComponent(SECRET),
      new URLSearchParams({ k: SECRET }).toString().slice(2),
    ];
    for (const prefix of ['', 'x', 'xy', 'xyz', 'a longer prefix ']) {
      const framed = Buffer.concat([Buffer.from(prefix), bytes, Buffer.from(' and after')]);
      forms.push(framed.toString('base64'), framed.toString('base64url'));
    }
    for (const form of forms) {
      const out = scrub(`leak: ${form} end`);
      expect(out, form).toContain('<secret:API_KEY>');
      // What is left of the encoded text no longer decodes to the secret.
      expect(out).not.toContain(form);
      for (const piece of out.split(/\s+/))
        for (const decoded of [Buffer.from(piece, 'base64').toString(), Buffer.from(piece, 'hex').toString()])
          expect(decoded).not.toContain(SECRET);
    }
  });

  it('leaves ordinary text alone and keeps short values out', () => {
    expect(scrub('nothing secret here: 0123456789abcdef QUJD')).toBe('nothing secret here: 0123456789abcdef QUJD');
    expect(encodings('abcd').every((form) => form.length >= 4)).toBe(true);
    expect(createScrubber(['abc'])('abc 616263 YWJj')).toBe('abc 616263 YWJj');
  });

  it('scrubs a seat key by its shape, with no scrubber knowing it', () => {
    const mac = createHmac('sha256', 'k').update('x').digest('hex');
    const key = `a_1.1893456000.${mac}`;
    expect(createScrubber([])(`Authorization: Bearer ${key}`)).toBe('Authorization: Bearer <secret:seat-key>');
    expect(scrub(`{"key":"${key}"}`)).toBe('{"key":"<secret:seat-key>"}');
  });
});
