// `npm run lint:deps` (a step of `npm test`): fails on a dependency that a workspace declares but nothing
// uses — not imported by any source, test, config or script file of the repository, and not a command run
// by an npm script. Such a dependency only costs install time, audit noise and bundle risk.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = /\.(ts|tsx|mts|mjs|js|cjs)$/;
const SKIP = new Set(['node_modules', 'dist', 'test-results', 'data', '.git']);

/** Packages used without an import, each with the reason. */
const USED_WITHOUT_IMPORT = {
  '@biomejs/biome': 'the linter, run as `biome`',
  typescript: 'the type checker, run as `tsc`',
  tsx: 'runs the server and scripts (`--import tsx`)',
  'drizzle-kit': 'generates migrations (`npm run db:generate`)',
};

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) walk(path, out);
    else if (SOURCE.test(name)) out.push(path);
  }
  return out;
}

const manifests = [
  'package.json',
  ...JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces.map((w) =>
    join(w, 'package.json'),
  ),
];
const scripts = manifests
  .map((m) => Object.values(JSON.parse(readFileSync(join(root, m), 'utf8')).scripts ?? {}).join('\n'))
  .join('\n');

const sources = walk(root, []).map((file) => readFileSync(file, 'utf8'));
const imported = new Set();
const specifier = /(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]([^'"./][^'"]*)['"]/g;
for (const text of sources) {
  for (const match of text.matchAll(specifier)) {
    const parts = match[1].split('/');
    imported.add(match[1].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]);
  }
}

const unused = [];
for (const manifest of manifests) {
  const pkg = JSON.parse(readFileSync(join(root, manifest), 'utf8'));
  for (const name of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })) {
    if (name.startsWith('@otklik/')) continue;
    if (imported.has(name) || name in USED_WITHOUT_IMPORT) continue;
    // Type packages count when the package they describe is used (`@types/pg` for `pg`, `@types/node`).
    if (name.startsWith('@types/')) {
      const typed = name.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2');
      if (typed === 'node' || imported.has(typed)) continue;
    }
    // A command an npm script runs (`vite build`, `vitest run`).
    if (new RegExp(`(^|[\\s/])${name.replace(/^@[^/]+\//, '')}(\\s|$)`, 'm').test(scripts)) continue;
    unused.push(`${relative(root, join(root, manifest))}: ${name}`);
  }
}

if (unused.length > 0) {
  console.error(
    `Declared but never used (remove them, or say why in scripts/check-deps.mjs):\n  ${unused.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(`All declared dependencies are used (${manifests.length} package.json files).`);
