// `npm run typecheck` (and step 1 of `npm test`): `tsc -p` for each project, incrementally. tsc keeps what
// it learned of each project in node_modules/.cache/tsc/<project>.tsbuildinfo and re-checks only the files
// that changed (and what depends on them) since: CI's second `npm test` run, on the same tree, takes ~2 s
// of CPU instead of ~45 s. `npm ci` empties node_modules, so a fresh install checks everything.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from './build-web.mjs';

export const typecheckProjects = ['packages/shared', 'apps/server', 'apps/web', 'e2e', 'bench'];

/** tsc's arguments for one project: its tsconfig, and its own build-info file. */
export function typecheckArgs(project) {
  const infoFile = join(repoRoot, 'node_modules/.cache/tsc', `${project.replaceAll('/', '-')}.tsbuildinfo`);
  return ['-p', project, '--incremental', '--tsBuildInfoFile', infoFile];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tsc = join(repoRoot, 'node_modules/.bin/tsc');
  for (const project of typecheckProjects) {
    const result = spawnSync(tsc, typecheckArgs(project), { cwd: repoRoot, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}
