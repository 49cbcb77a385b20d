import { notifications } from '@mantine/notifications';
import { ERROR_TOAST_SHORT_MS, translate } from '@otklik/shared';
import { ApiError, NetworkError } from '../api/client';
import { currentLocale } from '../i18n';

/** A failed action: the server's text (already translated), or the generic 'Ошибка'. */
export function showError(error: unknown) {
  // 403 already shows the No-access page; a network error already has its own notice.
  if (error instanceof ApiError && error.status === 403) return;
  if (error instanceof NetworkError) return;
  notifications.show({
    color: 'red',
    message:
      error instanceof ApiError && error.message
        ? error.message
        : translate(currentLocale(), 'error.generic'),
    autoClose: ERROR_TOAST_SHORT_MS,
  });
}

export function showSaved(message: string) {
  notifications.show({ color: 'green', message });
}
