import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo root (this file is e2e/harness/paths.ts). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where screenshots and other artifacts go (git-ignored). */
export const screensDir = resolve(repoRoot, 'test-results/screens');
