import { Badge, Box, Checkbox, Group, Rating, Text, VisuallyHidden } from '@mantine/core';
import { IconEyeOff, IconHeartFilled, IconTrash, IconUser } from '@tabler/icons-react';
import { type MouseEvent, memo } from 'react';
import { Link } from 'react-router';
import type { InboxChat, InboxItem, SearchMatch } from '../../../api/inboxTypes';
import { useLocale } from '../../../i18n/useLocale';
import type { InboxData } from '../hooks/useInboxData';
import { useInboxT } from '../i18n';
import { matchParts } from '../model/match';
import { formatExact, formatWhen } from '../model/time';
import { LockNote, ReturnedBadge, StatusBadge, TagBadges } from './badges';
import { EmotionBadge } from './EmotionBadge';
import { ProviderIcon } from './ProviderIcon';
import classes from './rows.module.css';

// One row of the comment list and of the chat list: network, account, author, the 100-character excerpt,
// time, status, tags, assignee and who is answering right now.

interface RowProps {
  to: string;
  focused: boolean;
  selected: boolean;
  selectable: boolean;
  /** Selects or unselects the row (by its id: one stable function for every row keeps rows memoized). */
  onToggle: (id: number) => void;
  /** The row no longer matches the list's filters (changed live); it stays, faded, until the list reloads. */
  faded?: boolean;
  data: InboxData;
  nowS: number;
}

function RowShell({
  id,
  to,
  focused,
  selected,
  selectable,
  onToggle,
  dimmed,
  children,
  testId,
  label,
}: Omit<RowProps, 'data' | 'nowS' | 'faded'> & {
  id: number;
  dimmed: boolean;
  children: React.ReactNode;
  testId: string;
  label: string;
}) {
  const t = useInboxT();
  return (
    <Box
      className={classes.row}
      data-focused={focused || undefined}
      data-selected={selected || undefined}
      data-dimmed={dimmed || undefined}
      data-testid={testId}
    >
      {selectable && (
        <Checkbox
          className={classes.check}
          size="sm"
          checked={selected}
          onChange={() => onToggle(id)}
          onClick={(event: MouseEvent) => event.stopPropagation()}
          aria-label={t('list.select')}
          data-testid="row-select"
        />
      )}
      <Link to={to} className={classes.link} data-testid="row-link">
        {/* A summary first, then the row as seen: the link's name contains its visible text. */}
        <VisuallyHidden>{label}</VisuallyHidden>
        {children}
      </Link>
    </Box>
  );
}

/** Where a text search found the row: the passage, its found words marked. */
function Passage({ match }: { match: SearchMatch }) {
  return (
    <span data-testid="row-match">
      {matchParts(match.text).map((part, index) =>
        part.found ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one passage never reorder
          <mark key={index} className={classes.found}>
            {part.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one passage never reorder
          <span key={index}>{part.text}</span>
        ),
      )}
    </span>
  );
}

/** Who wrote, and on which account (not on the narrowest phones). */
function RowAuthor({ author, account }: { author: string; account: string | undefined }) {
  return (
    <Group gap={6} wrap="nowrap" miw={0}>
      <Text fw={600} fz="sm" truncate="end" data-testid="row-author">
        {author}
      </Text>
      <Text fz="xs" c="dimmed" truncate="end" visibleFrom="xs">
        · {account ?? ''}
      </Text>
    </Group>
  );
}

/** Whom the record is assigned to. */
function AssigneeBadge({ name }: { name: string }) {
  return (
    <Badge size="xs" variant="default" leftSection={<IconUser size={10} />} style={{ textTransform: 'none' }}>
      {name}
    </Badge>
  );
}

// Rows are memoized: scrolling re-renders the list's visible window every frame, and a row whose props
// did not change (the same record, focus, selection, clock minute) must not render again.
export const ItemRow = memo(function ItemRow({ item, ...props }: RowProps & { item: InboxItem }) {
  const t = useInboxT();
  const locale = useLocale();
  const account = props.data.objectsById.get(item.object_id);
  const assignee = props.data.memberName(item.assigned_user_id);
  const author = item.author?.name ?? t('list.unknownAuthor');
  return (
    <RowShell
      {...props}
      id={item.id}
      dimmed={props.faded ?? false}
      testId="item-row"
      label={`${author}: ${item.excerpt}`}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ProviderIcon provider={item.provider} size={32} withTooltip={false} />
        <Box miw={0} style={{ flex: 1 }}>
          <Group gap={6} wrap="nowrap" justify="space-between">
            <RowAuthor author={author} account={account?.name} />
            <Text fz="xs" c="dimmed" style={{ flexShrink: 0 }} title={formatExact(item.created_at, locale)}>
              {formatWhen(item.created_at, props.nowS, locale)}
            </Text>
          </Group>
          <Group gap={6} wrap="nowrap" mt={2}>
            {item.kind === 'review' && item.rating !== null && (
              <Rating
                value={item.rating}
                readOnly
                size="xs"
                count={5}
                aria-label={t('item.rating', { rating: item.rating })}
              />
            )}
            {item.kind === 'mention' && (
              <Badge size="xs" variant="outline" color="gray">
                {t('kind.mention')}
              </Badge>
            )}
            <EmotionBadge sentiment={item.sentiment} emotion={item.emotion} />
          </Group>
          <Text fz="sm" lineClamp={2} c={item.excerpt ? undefined : 'dimmed'} data-testid="row-excerpt">
            {item.match ? <Passage match={item.match} /> : item.excerpt || t('list.noText')}
          </Text>
          <Group gap={6} mt={6} wrap="wrap">
            <StatusBadge
              status={item.status}
              closeReason={item.close_reason}
              delayedUntil={item.delayed_until}
              size="xs"
            />
            <ReturnedBadge returnedAt={item.returned_at} />
            {item.is_hidden && <IconEyeOff size={14} aria-label={t('list.hiddenMark')} color="gray" />}
            {item.is_deleted && <IconTrash size={14} aria-label={t('list.deletedMark')} color="red" />}
            {item.is_liked && (
              <IconHeartFilled size={14} aria-label={t('item.liked')} color="var(--mantine-color-red-6)" />
            )}
            <TagBadges ids={item.tags} tagsById={props.data.tagsById} />
            {assignee && <AssigneeBadge name={assignee} />}
            <LockNote lockKey={`item:${item.id}`} compact />
          </Group>
        </Box>
      </Group>
    </RowShell>
  );
});

export const ChatRow = memo(function ChatRow({ chat, ...props }: RowProps & { chat: InboxChat }) {
  const t = useInboxT();
  const locale = useLocale();
  const account = props.data.objectsById.get(chat.object_id);
  const assignee = props.data.memberName(chat.assigned_user_id);
  const author = chat.author?.name ?? t('list.unknownAuthor');
  const at = chat.last_message_at ?? chat.created_at;
  return (
    <RowShell
      {...props}
      id={chat.id}
      dimmed={props.faded ?? false}
      testId="chat-row"
      label={`${author}: ${chat.last_message}`}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ProviderIcon provider={chat.provider} size={32} withTooltip={false} />
        <Box miw={0} style={{ flex: 1 }}>
          <Group gap={6} wrap="nowrap" justify="space-between">
            <RowAuthor author={author} account={account?.name} />
            <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
              {chat.unread_count > 0 && (
                <Badge
                  size="sm"
                  circle
                  color="indigo"
                  aria-label={t('list.unread', { count: chat.unread_count })}
                >
                  {chat.unread_count}
                </Badge>
              )}
              <Text fz="xs" c="dimmed">
                {formatWhen(at, props.nowS, locale)}
              </Text>
            </Group>
          </Group>
          <Text
            fz="sm"
            lineClamp={2}
            mt={2}
            fw={chat.unread_count > 0 ? 500 : undefined}
            data-testid="row-excerpt"
          >
            {(chat.match ? chat.match.is_own : chat.last_message_is_own) && (
              <Text span c="dimmed" fz="sm">
                {t('list.ownLast')}
              </Text>
            )}
            {chat.match ? <Passage match={chat.match} /> : chat.last_message || t('list.noText')}
          </Text>
          <Group gap={6} mt={6} wrap="wrap">
            <StatusBadge
              status={chat.status}
              closeReason={chat.close_reason}
              delayedUntil={chat.delayed_until}
              size="xs"
            />
            <ReturnedBadge returnedAt={chat.returned_at} />
            <EmotionBadge sentiment={chat.sentiment} emotion={chat.emotion} />
            <TagBadges ids={chat.tags} tagsById={props.data.tagsById} />
            {assignee && <AssigneeBadge name={assignee} />}
            <LockNote lockKey={`chat:${chat.id}`} compact />
          </Group>
        </Box>
      </Group>
    </RowShell>
  );
});
