import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's body reaches its handler even with NUL or lone surrogates in it: the route cleans
     * its own input (per item, so one bad item does not fail its neighbours). Query and params are
     * still checked.
     */
    sanitizesOwnInput?: boolean;
  }
}

/** Deepest JSON nesting a body may have. Deeper bodies are refused before parsing (no recursion). */
export const MAX_JSON_DEPTH = 32;

// NUL (PostgreSQL text cannot hold it) or a UTF-16 surrogate without its pair (no UTF-8 form).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isBadText = (value: string) => value.includes('\0') || LONE_SURROGATE.test(value);

/** True when the JSON text nests arrays/objects deeper than `max`; one pass, strings skipped. */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/**
 * Where in a parsed value a bad string (value or key) sits, as `a.b.0`; undefined when there is none.
 * Iterative, so no input can exhaust the stack. Buffers and other non-plain values are not looked into
 * (webhooks keep their raw bytes).
 */
export function findBadText(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (isBadText(current)) return path || '_';
    } else if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) stack.push([current[i], path ? `${path}.${i}` : String(i)]);
    } else if (current !== null && typeof current === 'object') {
      const proto = Object.getPrototypeOf(current);
      if (proto !== Object.prototype && proto !== null) continue;
      for (const [key, item] of Object.entries(current)) {
        const at = path ? `${path}.${key}` : key;
        if (isBadText(key)) return at;
        stack.push([item, at]);
      }
    }
  }
  return undefined;
}

function checkText(req: FastifyRequest) {
  const ownBody = req.routeOptions.config?.sanitizesOwnInput === true;
  // Params and query come in objects of the router's own classes: copied into plain ones to be walked.
  const parts = [{ ...(req.params as object) }, { ...(req.query as object) }, ownBody ? undefined : req.body];
  for (const part of parts) {
    const field = findBadText(part);
    if (field !== undefined) {
      throw new AppError(400, 'input.invalidText', {
        errorType: 'validation',
        // The path is the caller's own keys: printable and short, whatever they sent.
        fields: { [field.replace(/[^\p{L}\p{N}._-]/gu, '?').slice(0, 100)]: 'input.invalidText' },
      });
    }
  }
}

/**
 * The input guard of every route: JSON bodies parsed with a depth cap, and no NUL or lone surrogate in
 * any body, query or path parameter (both make PostgreSQL fail; issue 11 items 13 and 15). Answers 400
 * in the caller's language before validation runs.
 */
export function registerInputGuard(app: FastifyInstance) {
  // Fastify's own parser (prototype-poisoning checks included), after a depth check on the raw text.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (jsonDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(
        new AppError(400, 'input.tooDeep', { errorType: 'validation', params: { limit: MAX_JSON_DEPTH } }),
        undefined,
      );
      return;
    }
    parseJson(req, body as string, done);
  });
  app.addHook('preValidation', async (req) => checkText(req));
}
