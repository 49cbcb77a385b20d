import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { IconAlarm, IconLock } from '@tabler/icons-react';
import type { CloseReason, InboxStatus } from '../../../api/inboxTypes';
import type { Tag } from '../../../api/types';
import { useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';
import { useLock } from '../../../realtime/hooks';
import { useInboxT } from '../i18n';

// Small marks of a row and a page: status, tags, who is answering.

export const STATUS_COLORS: Record<InboxStatus, string> = {
  new: 'blue',
  inprogress: 'orange',
  open: 'cyan',
  waiting: 'grape',
  delayed: 'violet',
  closed: 'gray',
  deleted: 'red',
};

export function StatusBadge({
  status,
  closeReason,
  delayedUntil,
  size = 'sm',
}: {
  status: InboxStatus;
  closeReason?: CloseReason | null;
  delayedUntil?: number | null;
  size?: 'xs' | 'sm' | 'md';
}) {
  const t = useInboxT();
  const locale = useLocale();
  let label = t(`status.${status}`);
  if (status === 'closed' && closeReason === 'reply') label = t('status.closedReply');
  if (status === 'closed' && closeReason === 'noreply') label = t('status.closedNoreply');
  if (status === 'closed' && closeReason === 'autorule') label = t('status.closedAutorule');
  const badge = (
    <Badge
      size={size}
      variant="light"
      color={STATUS_COLORS[status]}
      data-testid="status-badge"
      data-status={status}
    >
      {label}
    </Badge>
  );
  if (status === 'delayed' && delayedUntil) {
    return (
      <Tooltip label={t('status.delayedUntil', { date: formatDateTime(delayedUntil, locale) })}>
        {badge}
      </Tooltip>
    );
  }
  return badge;
}

/** Came back from "delayed" (snooze) and nobody opened it since (issue 13). */
export function ReturnedBadge({ returnedAt }: { returnedAt: number | null | undefined }) {
  const t = useInboxT();
  const locale = useLocale();
  if (!returnedAt) return null;
  return (
    <Tooltip label={t('status.returnedAt', { date: formatDateTime(returnedAt, locale) })}>
      <Badge
        size="xs"
        color="violet"
        variant="filled"
        leftSection={<IconAlarm size={10} />}
        data-testid="returned-mark"
      >
        {t('status.returned')}
      </Badge>
    </Tooltip>
  );
}

export function TagBadges({
  ids,
  tagsById,
  max = 3,
}: {
  ids: number[];
  tagsById: Map<number, Tag>;
  max?: number;
}) {
  const tags = ids.map((id) => tagsById.get(id)).filter((tag): tag is Tag => tag !== undefined);
  if (tags.length === 0) return null;
  const shown = tags.slice(0, max);
  return (
    <Group gap={4} wrap="nowrap" style={{ overflow: 'hidden' }}>
      {shown.map((tag) => (
        <Badge
          key={tag.id}
          size="xs"
          variant="dot"
          color={tag.color ?? 'gray'}
          style={{ textTransform: 'none', flexShrink: 1, minWidth: 0 }}
          data-testid="tag-badge"
        >
          {tag.name}
        </Badge>
      ))}
      {tags.length > max && (
        <Text fz="xs" c="dimmed">
          +{tags.length - max}
        </Text>
      )}
    </Group>
  );
}

/** An author's labels (docs/product/screens-and-routes.md settings/labels), as coloured dots with their names. */
export function LabelBadges({
  ids,
  labelsById,
  size = 'xs',
}: {
  ids: number[];
  labelsById: Map<number, { id: number; name: string; color: string | null }>;
  size?: 'xs' | 'sm';
}) {
  const labels = ids.map((id) => labelsById.get(id)).filter((label) => label !== undefined);
  return labels.map((label) => (
    <Badge
      key={label.id}
      size={size}
      variant="dot"
      color={label.color ?? 'gray'}
      style={{ textTransform: 'none' }}
    >
      {label.name}
    </Badge>
  ));
}

/** "Anna is answering…" — a colleague holds the lock of this item or chat (docs/product/api.md lock). */
export function LockNote({ lockKey, compact = false }: { lockKey: string; compact?: boolean }) {
  const t = useInboxT();
  const { holder, isMine } = useLock(lockKey);
  if (!holder || isMine) return null;
  return (
    <Badge
      size={compact ? 'xs' : 'sm'}
      color="pink"
      variant="light"
      leftSection={<IconLock size={compact ? 10 : 12} />}
      style={{ textTransform: 'none', flexShrink: 0 }}
      data-testid="lock-note"
    >
      {t('composer.lockedBy', { name: holder.name })}
    </Badge>
  );
}
