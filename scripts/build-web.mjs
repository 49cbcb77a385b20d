// Builds the web app (apps/web/dist) when it is missing or older than its sources.
// Used by scripts/start.mjs and by the e2e global setup; run directly: `node scripts/build-web.mjs [--force]`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const builtIndex = join(repoRoot, 'apps/web/dist/index.html');

// Everything the bundle is made from. Missing entries are ignored.
const sources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/public',
  'apps/web/vite.config.ts',
  'apps/web/compress.ts',
  'apps/web/package.json',
  'packages/shared/src',
].map((path) => join(repoRoot, path));

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes the folder's mtime
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** Why the web app needs a build, or null when dist is up to date. */
export function webBuildReason() {
  if (!existsSync(builtIndex)) return 'apps/web/dist/index.html is missing';
  const builtAt = statSync(builtIndex).mtimeMs;
  const changed = sources.find((path) => newestMtime(path) > builtAt);
  return changed ? `${changed.slice(repoRoot.length + 1)} changed since the last build` : null;
}

/** Runs `npm run build -w apps/web` with visible output; returns its exit code. */
export function buildWeb() {
  // Under `npm start`/`npm test`, reuse the npm that started us (same version, no PATH lookup).
  const npmCli = process.env.npm_execpath;
  const [command, args] =
    npmCli && /\.[cm]?js$/.test(npmCli)
      ? [process.execPath, [npmCli, 'run', 'build', '-w', 'apps/web']]
      : ['npm', ['run', 'build', '-w', 'apps/web']];
  // Always the production build: under Vitest (the e2e global setup) NODE_ENV is 'test', and Vite then
  // bundles React's development build (jsx-dev-runtime, ~60 KB more gzip than what users get).
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', env });
  if (result.error) {
    console.error(`Web build could not start: ${result.error.message}`);
    return 1;
  }
  return result.status ?? 1;
}

/** Builds when stale (or always with force); returns an exit code (0 = dist is fresh). */
export function ensureWebBuild({ force = false } = {}) {
  const reason = force ? 'forced' : webBuildReason();
  if (!reason) return 0;
  console.log(`Building the web app (${reason})...`);
  const code = buildWeb();
  if (code !== 0) console.error(`Web build failed (exit code ${code}).`);
  return code;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(ensureWebBuild({ force: process.argv.includes('--force') }));
}
