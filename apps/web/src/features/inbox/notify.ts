import { notifications } from '@mantine/notifications';
import { ERROR_TOAST_SHORT_MS, translate } from '@otklik/shared';
import { currentLocale } from '../../i18n';

/** A problem found here, before asking the server: a shared message key (docs/product/validation.md) with its params. */
export function notifyProblem(key: string, params?: Record<string, string | number>) {
  notifications.show({
    color: 'red',
    message: translate(currentLocale(), key, params),
    autoClose: ERROR_TOAST_SHORT_MS,
  });
}

export function notifyDone(message: string) {
  notifications.show({ color: 'green', message, autoClose: 3_000 });
}
