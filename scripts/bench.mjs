// `npm run bench`: runs every benchmark in bench/ (files named *.bench.ts or *.bench.mjs), one after the
// other, each in its own process (`node --import tsx <file>`). Each benchmark measures its baseline in
// the same run and prints its own ratios. Not part of `npm test`. Filter: `npm run bench -- <substring>`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from './build-web.mjs';

const benchDir = join(repoRoot, 'bench');
const filters = process.argv.slice(2);

function findBenchmarks(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory())
        return entry.name === 'results' || entry.name === 'node_modules' ? [] : findBenchmarks(path);
      return /\.bench\.(ts|mjs)$/.test(entry.name) ? [path] : [];
    })
    .sort();
}

const benchmarks = findBenchmarks(benchDir).filter(
  (path) => filters.length === 0 || filters.some((filter) => relative(repoRoot, path).includes(filter)),
);
if (benchmarks.length === 0) {
  console.log(
    `No benchmarks found in bench/ (*.bench.ts, *.bench.mjs)${filters.length ? ` matching ${filters.join(', ')}` : ''}.`,
  );
  process.exit(filters.length ? 1 : 0);
}

const failed = [];
for (const path of benchmarks) {
  const name = relative(repoRoot, path);
  console.log(`\n▶ ${name}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) failed.push(`${name} (${result.error?.message ?? `exit code ${result.status}`})`);
}
console.log(
  `\n${benchmarks.length - failed.length} of ${benchmarks.length} benchmarks ran${failed.length ? `; failed: ${failed.join(', ')}` : ''}.`,
);
process.exit(failed.length > 0 ? 1 : 0);
