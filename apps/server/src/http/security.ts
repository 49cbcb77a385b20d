import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../lib/config';

/**
 * The browser-facing security headers every response carries (README "Security"). Scripts come only
 * from our own origin: the built index.html has no inline script (http/security.test.ts checks the
 * build). Styles allow 'unsafe-inline' because Mantine and Emotion inject <style> tags at run time and
 * index.html keeps its boot splash inline; a style cannot run code. Images and media may come from any
 * host: customer avatars and attachments live on the networks' CDNs.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https: http:",
  "media-src 'self' blob: https: http:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The policy for this instance: with reCAPTCHA on, its widget script (and the scripts it loads from
 * gstatic) and its frames are allowed too; otherwise CONTENT_SECURITY_POLICY unchanged.
 */
export function contentSecurityPolicy(config: Config): string {
  if (!(config.RECAPTCHA_SECRET && config.RECAPTCHA_SITE_KEY)) return CONTENT_SECURITY_POLICY;
  const scriptOrigin = new URL(config.RECAPTCHA_SCRIPT_URL).origin;
  const scripts = [...new Set([scriptOrigin, 'https://www.google.com', 'https://www.gstatic.com'])];
  return CONTENT_SECURITY_POLICY.replace(
    "script-src 'self'",
    `script-src 'self' ${scripts.join(' ')}`,
  ).concat(`; frame-src https://www.google.com https://recaptcha.google.com`);
}

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Fastify's trustProxy: only the configured peers may set X-Forwarded-For/-Proto/-Host; everyone else
 * is taken at their socket address, so a forged header cannot dodge the per-address limits.
 */
export function trustProxyOption(config: Config): false | string[] {
  return config.TRUST_PROXY.length > 0 ? config.TRUST_PROXY : false;
}

export function registerSecurityHeaders(app: FastifyInstance, config: Config) {
  const alwaysTls = config.appUrl.startsWith('https://');
  const policy = contentSecurityPolicy(config);
  // onRequest, not onSend: the headers are on the reply before any handler, error handler or static
  // file answers, so every response — 404s and 500s included — carries them.
  app.addHook('onRequest', async (req, reply) => {
    reply.header('content-security-policy', policy);
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    // req.protocol is https on a TLS socket or when a trusted proxy says X-Forwarded-Proto: https.
    if (alwaysTls || req.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}

/** The origins whose pages may open the live socket: APP_URL's, ALLOWED_ORIGINS and the request's own. */
export function originChecker(config: Config) {
  const allowed = new Set([new URL(config.appUrl).origin, ...config.ALLOWED_ORIGINS.map(normalizeOrigin)]);
  return (req: FastifyRequest): boolean => {
    const origin = req.headers.origin;
    // Browsers always send Origin on a WebSocket handshake; other clients (collectors, scripts) may not,
    // and they are not the cross-site hijacking this check is about.
    if (origin === undefined) return true;
    const normalized = normalizeOrigin(origin);
    return allowed.has(normalized) || normalized === normalizeOrigin(`${req.protocol}://${req.host}`);
  };
}

function normalizeOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin; // "null" and other opaque origins match nothing allowed
  }
}
