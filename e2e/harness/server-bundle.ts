// The server the browser tests start, built once per run: apps/server/src/main.ts — the entry `npm start`
// runs — bundled into one ES module, so each of the suite's ~80 server starts loads one file instead of
// resolving and transforming ~400 TypeScript modules through tsx (a fifth of a start under load).
//
// It is the same code: the project's own modules (apps/server, packages/shared) are bundled by the esbuild
// that tsx runs them with, with tsx's transform settings; every npm package stays an import of
// node_modules, as under tsx. `import.meta.url` keeps naming each module's own source file, so paths
// relative to a module (the migrations folder, the web build, fixtures) are the ones tsx gives it. The
// bundle lives under node_modules/.cache, where bare imports resolve to the repository's node_modules.
// E2E_SERVER_BUNDLE=0 runs the server through tsx instead (startApp falls back to that without a bundle).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './paths';

/** The env variable naming the bundle (set by the global setup, read by startApp). */
export const SERVER_BUNDLE_ENV = 'E2E_SERVER_BUNDLE';

// The part of esbuild's API used here (esbuild is tsx's dependency, not the project's).
interface EsbuildPluginBuild {
  onResolve(
    options: { filter: RegExp },
    callback: (args: { path: string }) => { path: string; external: boolean } | undefined,
  ): void;
  onLoad(
    options: { filter: RegExp },
    callback: (args: { path: string }) => { contents: string; loader: 'ts' | 'tsx' },
  ): void;
}
interface Esbuild {
  build(options: Record<string, unknown>): Promise<{ errors: unknown[] }>;
}

/** The project's own packages, bundled; every other bare import stays external. */
const OWN_PACKAGE = /^@otklik\//;

/**
 * Builds the bundle into a new folder under node_modules/.cache and sets E2E_SERVER_BUNDLE; returns its
 * removal. Does nothing when E2E_SERVER_BUNDLE is already set (0: tsx; a path: a bundle built earlier).
 */
export async function buildServerBundle(): Promise<(() => void) | undefined> {
  if (process.env[SERVER_BUNDLE_ENV]) return undefined;
  const started = performance.now();
  const fromTsx = createRequire(createRequire(join(repoRoot, 'package.json')).resolve('tsx/package.json'));
  const esbuild = fromTsx('esbuild') as Esbuild;
  const cache = join(repoRoot, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'otklik-e2e-server-'));
  const outfile = join(dir, 'main.mjs');
  await esbuild.build({
    entryPoints: [join(repoRoot, 'apps/server/src/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    // As tsx transforms: names kept (class and function names show in logs and errors), source maps.
    keepNames: true,
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [
      {
        name: 'otklik-server',
        setup(build: EsbuildPluginBuild) {
          build.onResolve({ filter: /^[^./]/ }, (args) =>
            OWN_PACKAGE.test(args.path) ? undefined : { path: args.path, external: true },
          );
          build.onLoad({ filter: /\.tsx?$/ }, (args) => ({
            contents: readFileSync(args.path, 'utf8').replaceAll(
              'import.meta.url',
              JSON.stringify(pathToFileURL(args.path).href),
            ),
            loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
          }));
        },
      },
    ],
  });
  process.env[SERVER_BUNDLE_ENV] = outfile;
  console.log(`e2e: server bundled in ${((performance.now() - started) / 1000).toFixed(1)} s (${outfile})`);
  return () => {
    delete process.env[SERVER_BUNDLE_ENV];
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
}
