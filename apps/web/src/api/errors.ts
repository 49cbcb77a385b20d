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

/** No response at all, after retrying on the next base URL. */
export class NetworkError extends Error {
  constructor(cause?: unknown) {
    super('Network error', { cause });
    this.name = 'NetworkError';
  }
}

export type LogoutReason = 'no_refresh_token' | 'session_expired';

/** The session ended (refresh impossible or rejected); the app was told through onLogout. */
export class SessionEndedError extends Error {
  readonly reason: LogoutReason;
  constructor(reason: LogoutReason) {
    super(`Session ended: ${reason}`);
    this.name = 'SessionEndedError';
    this.reason = reason;
  }
}
