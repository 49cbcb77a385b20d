import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompress } from './compress';

// The API server (apps/server) listens on 3000 and serves the built app from dist/ in production.
// In development Vite serves the app and forwards the API and its websocket there.
const API_TARGET = 'http://127.0.0.1:3000';

/**
 * The chunks index.html loads (the entry and what it imports statically), as `assets/…` names. A lazy
 * screen's preload list leaves them out: they are loaded already, and listing them again for each of ~150
 * dynamic imports only lengthens the lists (screens.ts's chunk).
 */
const initialChunks = new Set<string>();

function collectInitialChunks(): Plugin {
  return {
    name: 'otklik-initial-chunks',
    apply: 'build',
    enforce: 'pre',
    generateBundle(_options, bundle) {
      initialChunks.clear();
      const queue = Object.values(bundle).flatMap((output) =>
        output.type === 'chunk' && output.isEntry ? [output.fileName] : [],
      );
      while (queue.length > 0) {
        const fileName = queue.shift() as string;
        const output = bundle[fileName];
        if (initialChunks.has(fileName) || output?.type !== 'chunk') continue;
        initialChunks.add(fileName);
        queue.push(...output.imports);
      }
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), collectInitialChunks(), precompress()],
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/v1': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  preview: { host: '127.0.0.1', port: 4173 },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    modulePreload: {
      // Every browser the app supports (ES2022) preloads modules natively.
      polyfill: false,
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === 'js' ? deps.filter((dep) => !initialChunks.has(dep)) : deps,
    },
    // Route screens are lazy chunks; only the router, UI kit and i18n load up front (scripts/check-bundle.mjs
    // keeps that under its budget), the interface language's strings right after.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // packages/shared only declares things (schemas, dictionaries, constants): whatever a chunk
      // doesn't use — e.g. the zod form schemas on the first screen — is left out of it.
      treeshake: { moduleSideEffects: [{ test: /packages[\\/]shared[\\/]src[\\/]/, sideEffects: false }] },
    },
  },
});
