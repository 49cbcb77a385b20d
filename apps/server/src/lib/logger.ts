import { type Logger as PinoLogger, pino } from 'pino';

export type Logger = PinoLogger;

/** Paths redacted from every log line (request logging must never print secrets). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-telegram-bot-api-secret-token"]',
  'req.headers["x-max-bot-api-secret"]',
  'req.headers["x-ingest-token"]',
  'password',
  'new_password',
  'password_confirm',
  'access_token',
  'refresh_token',
  'client_secret',
  'secret',
  'token',
  '*.password',
  '*.access_token',
  '*.refresh_token',
  '*.client_secret',
  '*.secret',
  '*.token',
];

const SENSITIVE_QUERY = /([?&](?:access_token|token|code|hash|secret|refresh_token|state)=)[^&\s]*/gi;

/**
 * Path segments that are themselves secrets: a sandbox page's address is its access token; the hash of
 * a signup invitation, password reset or email confirmation link is the key that link opens
 * (`/v1/signup/provider` and `/v1/reset_password/check` are routes, not hashes).
 */
const SENSITIVE_PATH =
  /(\/(?:sandbox|signup|reset_password|confirm_email)\/)(?!(?:provider|check)(?:[/?#\s]|$))[^/?#\s"'<>]+/gi;

/** A Telegram Bot API address carries the bot token (`/bot<token>/method`). */
const BOT_TOKEN_PATH = /(\/bot)\d+:[\w-]+/g;

/** Strips secret-bearing query values and path segments from a URL (or any text) before it is logged. */
export const redactUrl = (url: string) =>
  url
    .replace(SENSITIVE_QUERY, '$1[redacted]')
    .replace(SENSITIVE_PATH, '$1[redacted]')
    .replace(BOT_TOKEN_PATH, '$1[redacted]');

/** A log call's message, or the string fields of its context object (one level: `{ err: String(e), url }`). */
function redactArg(arg: unknown): unknown {
  if (typeof arg === 'string') return redactUrl(arg);
  if (!arg || typeof arg !== 'object' || Array.isArray(arg) || arg instanceof Error) return arg;
  if (Object.getPrototypeOf(arg) !== Object.prototype) return arg;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(arg))
    out[key] = typeof value === 'string' ? redactUrl(value) : value;
  return out;
}

export function createLogger(level: string, stream?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      hooks: {
        // Messages are free text (a mail printed when SMTP is not set, an error naming a URL): links
        // in them lose their secret parts too.
        logMethod(args, method) {
          const redacted = args.map(redactArg);
          return method.apply(this, redacted as Parameters<typeof method>);
        },
      },
      serializers: {
        req: (req: { method: string; url: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.ip ?? req.socket?.remoteAddress,
        }),
      },
    },
    stream ?? process.stdout,
  );
}
