import { notifications } from '@mantine/notifications';
import { SIGNUP_ERROR_TOAST_MS } from '@otklik/shared';
import { ApiError } from '../../api/client';

/** docs/product/errors.md Signup: the server's message for 7 s; on 500 or no message a generic one. */
export function showSignupError(error: unknown, fallback: string) {
  if (!(error instanceof ApiError)) return; // network errors have their own toast
  const text = error.status >= 500 || !error.body.error ? fallback : error.body.error;
  notifications.show({ color: 'red', message: text, autoClose: SIGNUP_ERROR_TOAST_MS });
}
