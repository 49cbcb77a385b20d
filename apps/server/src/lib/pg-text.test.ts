import { describe, expect, it } from 'vitest';
import { pgSafeDeep, pgSafeText } from './pg-text';

describe('pgSafeText', () => {
  it('drops NUL and replaces lone surrogates, keeping pairs and other text', () => {
    expect(pgSafeText('a\u0000b\u0000')).toBe('ab');
    expect(pgSafeText('\ud800x\udc00')).toBe('\ufffdx\ufffd');
    expect(pgSafeText('end\ud83d')).toBe('end\ufffd');
    expect(pgSafeText('пара 😀 \ud83d\ude00')).toBe('пара 😀 😀');
    expect(pgSafeText('\t\n\u0001 ok')).toBe('\t\n\u0001 ok');
  });
});

describe('pgSafeDeep', () => {
  it('cleans every string of arrays and plain objects, keys too, and leaves dates and numbers alone', () => {
    const at = new Date(0);
    expect(pgSafeDeep({ 'k\u0000': ['a\u0000', { n: 1, t: '\udc00' }], at, none: null, yes: true })).toEqual({
      k: ['a', { n: 1, t: '\ufffd' }],
      at,
      none: null,
      yes: true,
    });
    expect(pgSafeDeep({ at }).at).toBe(at);
  });
});
