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

const SENSITIVE_QUERY = /([?&](?:access_token|token|code|hash|secret|refresh_token|state)=)[^&]*/gi;

/** Path segments that are themselves secrets: a sandbox page's address is its access token. */
const SENSITIVE_PATH = /(\/sandbox\/)[^/?#]+/gi;

/** Strips secret-bearing query values and path segments from a URL before it is logged. */
export const redactUrl = (url: string) =>
  url.replace(SENSITIVE_QUERY, '$1[redacted]').replace(SENSITIVE_PATH, '$1[redacted]');

export function createLogger(level: string, stream?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
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
