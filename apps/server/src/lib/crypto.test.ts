import { describe, expect, it } from 'vitest';
import { Sealer } from './crypto';

describe('Sealer', () => {
  const sealer = new Sealer('a test secret that is long enough for the key');

  it('opens what it sealed, and nothing sealed with another secret', () => {
    const sealed = sealer.seal('{"kind":"slack","userId":7}');
    expect(sealer.open(sealed)).toBe('{"kind":"slack","userId":7}');
    expect(() => new Sealer('another secret, just as long as the first').open(sealed)).toThrow();
  });

  it('refuses any other spelling of a sealed value (a stray trailing character, changed padding bits)', () => {
    // Lengths 1..40 cover every remainder of the base64url length mod 4.
    for (let length = 1; length <= 40; length += 1) {
      const sealed = sealer.seal('x'.repeat(length));
      expect(() => sealer.open(`${sealed}x`)).toThrow();
      expect(() => sealer.open(`${sealed}A`)).toThrow();
      const [version, iv, tag, data] = sealed.split('.');
      expect(() => sealer.open([version, `${iv}x`, tag, data].join('.'))).toThrow();
      expect(() => sealer.open([version, iv, `${tag}x`, data].join('.'))).toThrow();
      expect(sealer.open(sealed)).toBe('x'.repeat(length));
    }
  });
});
