import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { routeNames } from '@otklik/shared/routes';
import { describe, expect, it } from 'vitest';
import { screens } from './screens';

// docs/product/screens-and-routes.md lists every route with "screen" or "placeholder": it stays true to
// screens.ts (a screen built without updating the page fails here; `node scripts/docs-routes.mjs` fixes it).
const doc = readFileSync(
  fileURLToPath(new URL('../../../../docs/product/screens-and-routes.md', import.meta.url)),
  'utf8',
);

describe('the routes page of the product docs', () => {
  it('marks each route built or placeholder as screens.ts has it', () => {
    const rows = new Map<string, string>();
    for (const match of doc.matchAll(/^\| `([^`]+)`\s*\|[^|]*\|[^|]*\|\s*(screen|placeholder)\s*\|/gm))
      rows.set(match[1]!, match[2]!);
    const wrong = routeNames
      .filter((name) => name !== 'not-found')
      .filter((name) => rows.get(name) !== (screens[name] ? 'screen' : 'placeholder'))
      .map((name) => `${name}: page says ${rows.get(name) ?? 'nothing'}`);
    expect(wrong).toEqual([]);
  });
});
