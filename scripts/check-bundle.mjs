// The web app's initial JavaScript: every script index.html loads or preloads, plus whatever those import
// statically (dynamic `import()` chunks are not counted), measured gzip -9 as a browser receives it.
// Fails (exit 1) above the budget. `node scripts/check-bundle.mjs [distDir] [--budget KB] [--quiet]`;
// the default dist is apps/web/dist (build it first: `npm run build -w apps/web`). `npm test` runs it
// after the web build.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Kilobytes (1,024 bytes) of gzip-compressed JavaScript the first screen may load. */
export const INITIAL_JS_BUDGET_KB = 150;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Static imports of a built ES module: `import"./a.js"`, `import{x}from"./b.js"`, `export*from"./c.js"`. */
const STATIC_IMPORT = /(?:\bimport|\bfrom)\s*["']([^"']+\.js)["']/g;

/** The initial scripts of a build: each path (as served, `/assets/...`) with its raw and gzip sizes. */
export function initialScripts(distDir) {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const queue = [];
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/g) ?? []) {
    const isScript = tag.startsWith('<script') && /\btype=["']module["']/.test(tag);
    const isPreload = tag.startsWith('<link') && /\brel=["']modulepreload["']/.test(tag);
    const url = tag.match(/\b(?:src|href)=["']([^"']+)["']/)?.[1];
    if ((isScript || isPreload) && url) queue.push(url);
  }
  const seen = new Map();
  while (queue.length > 0) {
    const url = queue.shift();
    if (seen.has(url)) continue;
    const file = join(distDir, url);
    if (!existsSync(file)) throw new Error(`${url} is referenced but missing from ${distDir}`);
    const body = readFileSync(file);
    seen.set(url, { raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    for (const [, spec] of body.toString('utf8').matchAll(STATIC_IMPORT)) {
      if (spec.startsWith('.')) queue.push(posix.join(posix.dirname(url), spec));
      else if (spec.startsWith('/')) queue.push(spec);
    }
  }
  return [...seen].map(([url, sizes]) => ({ url, ...sizes })).sort((a, b) => b.gzip - a.gzip);
}

function main(argv) {
  const args = argv.slice(2);
  const budgetAt = args.indexOf('--budget');
  const budgetKb = budgetAt >= 0 ? Number(args[budgetAt + 1]) : INITIAL_JS_BUDGET_KB;
  const quiet = args.includes('--quiet');
  const positional = args.filter((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--budget');
  const distDir = resolve(positional[0] ?? join(repoRoot, 'apps/web/dist'));
  if (!existsSync(join(distDir, 'index.html'))) {
    console.error(`${distDir}/index.html is missing: build the web app first (npm run build -w apps/web).`);
    return 1;
  }
  const scripts = initialScripts(distDir);
  const total = scripts.reduce((sum, script) => sum + script.gzip, 0);
  const kb = (bytes) => (bytes / 1024).toFixed(1);
  if (!quiet) {
    for (const script of scripts) {
      console.log(`${kb(script.gzip).padStart(7)} KB gzip ${kb(script.raw).padStart(7)} KB  ${script.url}`);
    }
  }
  const line = `Initial JS: ${kb(total)} KB gzip in ${scripts.length} files (budget ${budgetKb} KB)`;
  if (total > budgetKb * 1024) {
    console.error(`${line}: OVER BUDGET`);
    return 1;
  }
  console.log(line);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(main(process.argv));
}
