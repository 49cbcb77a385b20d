// Brings the "Built" column of docs/product/screens-and-routes.md up to date with apps/web/src/app/screens.ts:
// a route whose name is a key of `screens` is a "screen", every other one a "placeholder".
// (apps/web/src/app/screens-doc.test.ts fails when the page and the map disagree.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './build-web.mjs';

const screensSource = readFileSync(join(repoRoot, 'apps/web/src/app/screens.ts'), 'utf8');
const built = new Set(
  [...screensSource.matchAll(/^\s+'?([a-z0-9-]+)'?:\s*(?:lazyScreen|accountCallbackScreen|\w+Screen)/gm)].map(
    (m) => m[1],
  ),
);
const file = join(repoRoot, 'docs/product/screens-and-routes.md');
let changed = 0;
const text = readFileSync(file, 'utf8').replace(
  /^(\| `([^`]+)`\s*\|[^|]*\|[^|]*\|\s*)(screen|placeholder)(\s*)\|/gm,
  (row, head, name, was, pad) => {
    const now = built.has(name) ? 'screen' : 'placeholder';
    if (now === was) return row;
    changed += 1;
    return `${head}${now}${' '.repeat(Math.max(1, pad.length + was.length - now.length))}|`;
  },
);
// Each table is followed by "N of M built." — recount.
let screensInTable = 0;
let rowsInTable = 0;
const counted = text
  .split('\n')
  .map((line) => {
    const row = /^\| `[^`]+`\s*\|[^|]*\|[^|]*\|\s*(screen|placeholder)\s*\|/.exec(line);
    if (row) {
      rowsInTable += 1;
      if (row[1] === 'screen') screensInTable += 1;
      return line;
    }
    if (/^\d+ of \d+ built\.$/.test(line)) {
      const recount = `${screensInTable} of ${rowsInTable} built.`;
      screensInTable = 0;
      rowsInTable = 0;
      return recount;
    }
    return line;
  })
  .join('\n');
writeFileSync(file, counted);
console.log(`${changed} route(s) changed in docs/product/screens-and-routes.md`);
