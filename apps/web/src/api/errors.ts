import type { ApiErrorBody } from './types';

// What the API client throws.

export class ApiError extends Error {
  readonly status: number;
  readonly errorType: string | undefined;
  readonly fields: Record<string, string>;
  readonly body: ApiErrorBody;

  constructor(status: number, body: ApiErrorBody, fallbackText: string) {
    super(body.error || fallbackText || `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.errorType = body.error_type;
    this.fields = body.fields ?? {};
    this.body = body;
  }
}

/**
 * The server's docs/product/states.md access gate refused the call: 403 `otp_required` (two-factor setup first) or
 * 402 `paid_over` (every space expired). Not an error of the screen: the config says the same, and the
 * shell shows the profile redirect or the paid-over page once it is reloaded.
 */
export function isAccessGateError(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return (
    (error.status === 403 && error.errorType === 'otp_required') ||
    (error.status === 402 && error.errorType === 'paid_over')
  );
}

/** No response at all, after retrying on the next base URL. */
export class NetworkError extends Error {
  /** `message` is what a screen shows: the client passes it translated. */
  constructor(cause?: unknown, message = 'Network error') {
    super(message, { cause });
    this.name = 'NetworkError';
  }
}

export type LogoutReason = 'no_refresh_token' | 'session_expired';

/** The session ended (refresh impossible or rejected); the app was told through onLogout. */
export class SessionEndedError extends Error {
  readonly reason: LogoutReason;
  /** `message` is what a screen shows: the client passes it translated. */
  constructor(reason: LogoutReason, message = `Session ended: ${reason}`) {
    super(message);
    this.name = 'SessionEndedError';
    this.reason = reason;
  }
}
