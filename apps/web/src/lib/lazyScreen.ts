import { CHUNK_LOAD_TIMEOUT_MS } from '@otklik/shared';
import { type ComponentType, lazy } from 'react';

// docs/product/errors.md: a failed chunk load reloads the page (once — a second failure shows the error screen).
// docs/product/limits.md: a chunk that takes longer than 120 s counts as failed.

const RELOAD_FLAG = 'otklik.chunkReload';

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Chunk load timeout')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function reloadedAlready(): boolean {
  try {
    return window.sessionStorage.getItem(RELOAD_FLAG) !== null;
  } catch {
    return true;
  }
}

/**
 * Loads a chunk: a failure reloads the page once (the deployment changed under an open tab); a second
 * failure, or a chunk slower than CHUNK_LOAD_TIMEOUT_MS, is thrown to the route's error screen.
 */
export async function loadChunk<T>(factory: () => Promise<T>): Promise<T> {
  try {
    const module = await withTimeout(factory(), CHUNK_LOAD_TIMEOUT_MS);
    try {
      window.sessionStorage.removeItem(RELOAD_FLAG);
    } catch {
      // ignore
    }
    return module;
  } catch (error) {
    if (reloadedAlready()) throw error;
    window.sessionStorage.setItem(RELOAD_FLAG, '1');
    window.location.reload();
    // Keep the suspense fallback up until the page reloads.
    return new Promise<never>(() => {});
  }
}

export function lazyScreen(factory: () => Promise<{ default: ComponentType }>) {
  return lazy(() => loadChunk(factory));
}
