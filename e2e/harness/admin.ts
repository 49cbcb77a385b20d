import { spawnSync } from 'node:child_process';
import { repoRoot } from './paths';

/**
 * `npm run admin -- <args>` on a stopped app's DATA_DIR (or the DATABASE_URL the run shares): the
 * instance operator's commands, for tests that need what only the operator can do (expire a space,
 * make a partner). Throws with the CLI's output when it fails.
 */
export function runAdmin(dataDir: string, args: string[]): string {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'production' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0)
    throw new Error(
      `npm run admin -- ${args.join(' ')} failed (${result.status}):\n${result.stdout}${result.stderr}`,
    );
  return result.stdout;
}
