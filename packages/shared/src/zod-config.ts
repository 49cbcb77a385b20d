import { z } from 'zod';

/**
 * Zod compiles object parsers with `new Function` when it may, and finds out by trying. The web app runs
 * under a Content-Security-Policy without 'unsafe-eval' (server http/security.ts), where even that try
 * is reported as a violation: the web turns the compilation off before parsing anything.
 */
export function disableSchemaCodegen(): void {
  z.config({ jitless: true });
}
