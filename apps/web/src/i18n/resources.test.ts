import { messages } from '@otklik/shared';
import { routeNames } from '@otklik/shared/routes';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { inboxEn } from './inbox.en';
import { inboxRu } from './inbox.ru';
import { ru } from './ru';
import { settingsEn, shellEn } from './shell.en';
import { settingsRu, shellRu } from './shell.ru';
import { titlesEn } from './titles.en';
import { titlesRu } from './titles.ru';

// Issue 13: every interface string exists in both languages, and none is empty — the web's dictionaries
// (core, titles, shell and settings, inbox) and the messages shared with the server.

type Tree = { [key: string]: unknown };

/** Leaf key → text; plural forms (_one, _few, _many, _other) are reduced to their base key. */
function leaves(tree: Tree, prefix = '', out = new Map<string, string[]>()): Map<string, string[]> {
  for (const [key, value] of Object.entries(tree)) {
    const path = `${prefix}${key.replace(/_(one|few|many|other)$/, '')}`;
    if (typeof value === 'string') out.set(path, [...(out.get(path) ?? []), value]);
    else if (value && typeof value === 'object') leaves(value as Tree, `${path}.`, out);
    else out.set(path, [String(value)]);
  }
  return out;
}

const dictionaries: Array<[string, unknown, unknown]> = [
  ['core', ru, en],
  ['titles', titlesRu, titlesEn],
  ['shell', shellRu, shellEn],
  ['settings', settingsRu, settingsEn],
  ['inbox', inboxRu, inboxEn],
  ['shared messages', messages.ru, messages.en],
];

describe.each(dictionaries)('%s strings', (_name, ruTree, enTree) => {
  const ruKeys = leaves(ruTree as Tree);
  const enKeys = leaves(enTree as Tree);

  it('every key exists in both languages', () => {
    expect(
      [...enKeys.keys()].filter((key) => !ruKeys.has(key)),
      'only in English',
    ).toEqual([]);
    expect(
      [...ruKeys.keys()].filter((key) => !enKeys.has(key)),
      'only in Russian',
    ).toEqual([]);
  });

  it('no text is empty', () => {
    const empty = [...ruKeys, ...enKeys]
      .filter(([, texts]) => texts.some((text) => typeof text !== 'string' || text.trim() === ''))
      .map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it('the same {{params}} in both languages', () => {
    const params = (texts: string[]) =>
      [...new Set(texts.flatMap((t) => t.match(/\{\{\w+\}\}/g) ?? []))].sort();
    const differ = [...ruKeys]
      .filter(([key, texts]) => enKeys.has(key) && params(texts).join() !== params(enKeys.get(key)!).join())
      .map(([key]) => key);
    expect(differ).toEqual([]);
  });
});

describe('route titles', () => {
  it('every route has a title in both languages', () => {
    for (const name of routeNames) {
      expect((titlesRu as Record<string, string>)[name], name).toBeTruthy();
      expect((titlesEn as Record<string, string>)[name], name).toBeTruthy();
    }
  });
});
