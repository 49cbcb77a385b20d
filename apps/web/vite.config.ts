import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './compress';

// The API server (apps/server) listens on 3000 and serves the built app from dist/ in production.
// In development Vite serves the app and forwards the API and its websocket there.
const API_TARGET = 'http://127.0.0.1:3000';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), precompress()],
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
    // Route screens are lazy chunks; only the router, UI kit and i18n load up front.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // packages/shared only declares things (schemas, dictionaries, constants): whatever a chunk
      // doesn't use — e.g. the zod form schemas on the first screen — is left out of it.
      treeshake: { moduleSideEffects: [{ test: /packages[\\/]shared[\\/]src[\\/]/, sideEffects: false }] },
    },
  },
});
