import { notifications } from '@mantine/notifications';
import { pathFor } from '@otklik/shared/routes';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { queryKeys } from '../api/keys';
import { applyToCache, catchUp } from './cache';
import { beep, showDesktop, soundOn } from './desktop';
import { socket } from './instance';
import { notificationTarget, parseNotify } from './notify';
import { isSessionOrGateClose } from './socket';

/**
 * The signed-in shell keeps the socket open (docs/product/states.md, api.md): messages refresh cached data; `notify`
 * messages become notifications — an issue one opens the task (route issue-page), a mention (issue 13)
 * the item or chat its note is on, when clicked. Not
 * while the access gate restricts the user (`enabled` false): the server refuses the socket then.
 */
export function useRealtime(enabled = true) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  useEffect(() => {
    if (!enabled) return;
    const unsubscribe = socket.subscribe('*', (message) => applyToCache(queryClient, message));
    // The server closed the socket because the session ended or the access gate now applies: the
    // config reload finds out which (a 401 signs out after the failed refresh; the gate state shows).
    const unwatch = socket.onServerClose((code) => {
      if (isSessionOrGateClose(code)) void queryClient.invalidateQueries({ queryKey: queryKeys.config });
    });
    // What changed while the socket was not open (the page loaded its data before the socket connected,
    // or the connection dropped) came with no message: what the socket keeps live is read again on every
    // open (realtime/cache.ts catchUp).
    const unwatchState = socket.onStateChange((state) => {
      // The connection's state on the page (<html data-realtime="open">): for diagnostics and the e2e
      // suite, which waits for it before making a change that only the socket reports.
      document.documentElement.dataset.realtime = state;
      if (state !== 'open') return;
      catchUp(queryClient, Date.now());
    });
    socket.connect();
    return () => {
      unsubscribe();
      unwatch();
      unwatchState();
      socket.disconnect();
    };
  }, [queryClient, enabled]);

  useEffect(
    () =>
      socket.subscribe('notify', (message) => {
        const notice = parseNotify(message);
        const target = notificationTarget(notice);
        const open = target ? () => void navigate(pathFor(target.route, { id: target.id })) : undefined;
        if (notice.browser) showDesktop(notice.title ?? notice.text, notice.title ? notice.text : '', open);
        if (soundOn()) beep();
        if (!notice.inapp) return;
        notifications.show({
          title: notice.title,
          message: notice.text,
          autoClose: notice.durationMs,
          color: notice.kind === 'issue' ? 'orange' : notice.kind === 'mention' ? 'yellow' : 'indigo',
          style: target ? { cursor: 'pointer' } : undefined,
          className: `notify-${notice.kind}`,
          onClick: open,
        });
      }),
    [navigate],
  );
}
