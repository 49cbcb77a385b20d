import type { MessageKey } from '@otklik/shared';

/**
 * The one error type services throw (CONVENTIONS §10). The HTTP layer turns it into
 * `{ error, error_type?, fields? }` with `error` translated into the caller's locale.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly extra: {
      errorType?: string;
      fields?: Record<string, string>;
      params?: Record<string, string | number>;
      /** Additional top-level fields of the error body (e.g. `access_token` for no_email). */
      body?: Record<string, unknown>;
      headers?: Record<string, string>;
      /** RFC 6749 §5.2 body for OAuth clients: `error` is the code (errorType), `error_description` the text. */
      rfc6749?: boolean;
    } = {},
  ) {
    super(key);
    this.name = 'AppError';
  }
}

export const badRequest = (key: MessageKey, extra?: AppError['extra']) => new AppError(400, key, extra);
export const unauthorized = (key: MessageKey = 'error.unauthorized') => new AppError(401, key);
export const forbidden = (key: MessageKey = 'error.noAccess') => new AppError(403, key);
export const notFound = (key: MessageKey = 'error.notFound') => new AppError(404, key);
export const conflict = (key: MessageKey, extra?: AppError['extra']) => new AppError(409, key, extra);
