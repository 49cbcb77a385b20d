import { describe, expect, it } from 'vitest';
import { inboxEn } from './inbox.en';
import { inboxRu } from './inbox.ru';

type Tree = { [key: string]: string | Tree };

/** Every leaf key; plural forms are reduced to their base key. */
function keys(tree: Tree, prefix = ''): Set<string> {
  const out = new Set<string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = `${prefix}${key.replace(/_(one|few|many|other)$/, '')}`;
    if (typeof value === 'string') out.add(path);
    else for (const child of keys(value, `${path}.`)) out.add(child);
  }
  return out;
}

describe('inbox strings', () => {
  it('English has every Russian string, and no extra ones', () => {
    expect([...keys(inboxEn as unknown as Tree)].sort()).toEqual(
      [...keys(inboxRu as unknown as Tree)].sort(),
    );
  });

  it('plural strings have the forms each language needs', () => {
    const forms = (tree: Tree, base: string) => Object.keys(tree).filter((k) => k.startsWith(`${base}_`));
    const walk = (ru: Tree, en: Tree) => {
      for (const [key, value] of Object.entries(ru)) {
        if (typeof value !== 'string') walk(value, en[key] as Tree);
        else if (key.endsWith('_one')) {
          const base = key.slice(0, -4);
          expect(forms(ru, base).sort(), base).toEqual([
            `${base}_few`,
            `${base}_many`,
            `${base}_one`,
            `${base}_other`,
          ]);
          expect(forms(en, base).sort(), base).toEqual([`${base}_one`, `${base}_other`]);
        }
      }
    };
    walk(inboxRu as unknown as Tree, inboxEn as unknown as Tree);
  });
});
