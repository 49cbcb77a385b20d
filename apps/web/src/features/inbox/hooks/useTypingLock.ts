import { notifications } from '@mantine/notifications';
import { ERROR_TOAST_LONG_MS, translate } from '@otklik/shared';
import { useEffect, useMemo } from 'react';
import { currentLocale } from '../../../i18n';
import { lock, takeover, unlock, useLock, useSocketEvent } from '../../../realtime/hooks';
import { createTypingLock } from '../model/typingLock';

/**
 * The lock of the record this page shows (`item:12`, `chat:5`): who holds it, for everyone; with
 * `mayHold` (this user may answer), the reply box's typing takes it (model/typingLock.ts) — viewing
 * takes nothing. When the server takes it away — a colleague with the right took it over, or nobody
 * typed for a while — the user is told.
 */
export function useTypingLock(key: string, options: { mayHold: boolean; canTakeOver: boolean }) {
  const view = useLock(key);
  const { mayHold } = options;
  const control = useMemo(
    () => (mayHold ? createTypingLock(key, { lock, unlock, takeover }) : null),
    [key, mayHold],
  );
  // Leaving the page (or another record in its place) lets go.
  useEffect(() => () => control?.release(), [control]);
  useSocketEvent('lock_lost', (message) => {
    if (!control || message.key !== key) return;
    control.lost();
    const by = message.by as { name?: unknown } | undefined;
    const taken = message.reason === 'taken';
    notifications.show({
      color: taken ? 'orange' : 'gray',
      message: taken
        ? translate(currentLocale(), 'lock.takenOver', { name: typeof by?.name === 'string' ? by.name : '' })
        : translate(currentLocale(), 'lock.idle'),
      autoClose: ERROR_TOAST_LONG_MS,
    });
  });
  const lockedBy = view.holder && !view.isMine ? view.holder.name : null;
  return {
    /** A colleague's name while they hold it; null when free or ours. */
    lockedBy,
    typed: (text: string) => control?.typed(text),
    release: () => control?.release(),
    takeOver: options.canTakeOver && control ? () => control.takeOver() : undefined,
  };
}
