import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMessageKey, translate } from '@otklik/shared';
import { describe, expect, it } from 'vitest';

// Issue 13: connector failure texts were one language only (Russian-only or English-only literals stored
// and shown as they were). Every failure we word ourselves must carry a message key (both languages);
// only the network's own text may travel untranslated, and it is shown as a quoted detail.

const SRC = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$|emulator\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Each `new ConnectorError(...)` call's text, up to its closing parenthesis. */
function constructions(text: string): string[] {
  const found: string[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf('new ConnectorError(', from);
    if (start < 0) return found;
    let depth = 0;
    let end = start;
    for (let i = start; i < text.length; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) {
        end = i;
        break;
      }
    }
    found.push(text.slice(start, end + 1));
    from = end + 1;
  }
}

describe('connector failure texts', () => {
  const calls = sources(SRC).flatMap((file) =>
    constructions(readFileSync(file, 'utf8')).map((call) => ({ file: file.slice(SRC.length + 1), call })),
  );

  it('are found in the sources', () => {
    expect(calls.length).toBeGreaterThan(50);
  });

  it('every failure worded by us (a literal text) carries a reason with a message key', () => {
    const literal = /^new ConnectorError\(\s*(?:'[a-z_]+'|[^,]+),\s*['`]/;
    const unkeyed = calls.filter(({ call }) => literal.test(call) && !/reason:/.test(call));
    expect(unkeyed.map(({ file, call }) => `${file}: ${call.replace(/\s+/g, ' ')}`)).toEqual([]);
  });

  it('every reason key exists in both languages, and the Russian text is Russian', () => {
    const keys = new Set(
      calls.flatMap(({ call }) => [...call.matchAll(/key: '([\w.]+)'/g)].map((m) => m[1]!)),
    );
    expect(keys.size).toBeGreaterThan(15);
    for (const key of keys) {
      expect(isMessageKey(key), key).toBe(true);
      expect(translate('ru', key, { network: 'VK', host: 'example.org' }), key).toMatch(/[а-яё]/i);
      expect(translate('en', key, { network: 'VK', host: 'example.org' }), key).not.toMatch(/[а-яё]/i);
    }
  });
});
