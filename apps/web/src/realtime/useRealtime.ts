import { notifications } from '@mantine/notifications';
import { pathFor } from '@otklik/shared/routes';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { applyToCache } from './cache';
import { socket } from './instance';
import { parseNotify } from './notify';

/**
 * The signed-in shell keeps the socket open (SPEC §4, §7): messages refresh cached data; `notify`
 * messages become notifications — an issue one opens the task (route issue-page) when clicked.
 */
export function useRealtime() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  useEffect(() => {
    const unsubscribe = socket.subscribe('*', (message) => applyToCache(queryClient, message));
    socket.connect();
    return () => {
      unsubscribe();
      socket.disconnect();
    };
  }, [queryClient]);

  useEffect(
    () =>
      socket.subscribe('notify', (message) => {
        const notice = parseNotify(message);
        const issueId = notice.kind === 'issue' ? notice.id : undefined;
        notifications.show({
          title: notice.title,
          message: notice.text,
          autoClose: notice.durationMs,
          color: notice.kind === 'issue' ? 'orange' : 'indigo',
          style: issueId !== undefined ? { cursor: 'pointer' } : undefined,
          onClick:
            issueId !== undefined ? () => void navigate(pathFor('issue-page', { id: issueId })) : undefined,
        });
      }),
    [navigate],
  );
}
