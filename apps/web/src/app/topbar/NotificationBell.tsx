import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import type { NotificationWire } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconBell } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useMarkRead, useNotificationList, useUnreadNotifications } from '../../api/notifications';
import { useLocale } from '../../i18n/useLocale';
import { formatDateTime } from '../../lib/format';
import { setTitleCount } from '../../shell/title';

/** Where a notification leads: its task, item or chat. */
function targetOf(n: NotificationWire): string | null {
  if (n.issue_id !== null) return pathFor('issue-page', { id: n.issue_id });
  if (n.item_id !== null) return pathFor('item', { id: n.item_id });
  if (n.chat_id !== null) return pathFor('chat-messages', { id: n.chat_id });
  return null;
}

/**
 * The notification centre (issue 18): a bell with the unread count (also in the tab title), the history
 * newest first, opening one marks it read; mark all read. Live: the socket's `notify` and
 * `notifications.changed` reload it (realtime/cache.ts).
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const unread = useUnreadNotifications().data ?? 0;
  const list = useNotificationList(opened);
  const mark = useMarkRead();
  useEffect(() => {
    setTitleCount(unread);
    return () => setTitleCount(0);
  }, [unread]);
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const label = unread > 0 ? t('shell.notify.bellUnread', { count: unread }) : t('shell.notify.bell');
  const open = (n: NotificationWire) => {
    if (n.read_at === null) mark.mutate(n.id);
    const to = targetOf(n);
    setOpened(false);
    if (to) void navigate(to);
  };
  return (
    // The indicator wraps the popover so the dialog's aria attributes land on the button itself.
    <Indicator label={unread > 99 ? '99+' : unread} size={16} offset={4} disabled={unread === 0} color="red">
      <Popover
        opened={opened}
        onChange={setOpened}
        position="bottom-end"
        width={340}
        shadow="md"
        withinPortal
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={label}
            title={label}
            onClick={() => setOpened((o) => !o)}
            data-testid="notification-bell"
            data-unread={unread}
          >
            <IconBell size={20} stroke={1.7} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p={0} data-testid="notification-centre">
          <Group justify="space-between" px="sm" py={6} wrap="nowrap">
            <Text fw={600} fz="sm">
              {t('shell.notify.bell')}
            </Text>
            <Button
              variant="subtle"
              size="compact-xs"
              disabled={unread === 0}
              onClick={() => mark.mutate('all')}
              data-testid="notification-read-all"
            >
              {t('shell.notify.markAllRead')}
            </Button>
          </Group>
          <ScrollArea.Autosize mah={420}>
            {items.length === 0 && !list.isLoading ? (
              <Text fz="sm" c="dimmed" px="sm" py="md">
                {t('shell.notify.empty')}
              </Text>
            ) : (
              <Stack gap={0}>
                {items.map((n) => (
                  <UnstyledButton
                    key={n.id}
                    onClick={() => open(n)}
                    px="sm"
                    py={8}
                    style={{
                      borderTop: '1px solid var(--mantine-color-default-border)',
                      background: n.read_at === null ? 'var(--mantine-color-blue-light)' : undefined,
                    }}
                    data-testid="notification-row"
                    data-unread={n.read_at === null}
                  >
                    <Text fz="sm" fw={n.read_at === null ? 600 : 400} lineClamp={2}>
                      {n.title}
                    </Text>
                    {n.text && (
                      <Text fz="xs" c="dimmed" lineClamp={2}>
                        {n.text}
                      </Text>
                    )}
                    <Text fz="xs" c="dimmed">
                      {formatDateTime(n.created_at, locale)}
                    </Text>
                  </UnstyledButton>
                ))}
                {list.hasNextPage && (
                  <Button
                    variant="subtle"
                    size="xs"
                    onClick={() => void list.fetchNextPage()}
                    loading={list.isFetchingNextPage}
                  >
                    {t('shell.notify.more')}
                  </Button>
                )}
              </Stack>
            )}
          </ScrollArea.Autosize>
          <Group px="sm" py={6} style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
            <Anchor
              component={Link}
              to={pathFor('settings-subscriptions')}
              fz="xs"
              onClick={() => setOpened(false)}
            >
              {t('shell.notify.settings')}
            </Anchor>
          </Group>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
