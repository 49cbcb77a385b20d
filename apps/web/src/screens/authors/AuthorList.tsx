import { Anchor, Avatar, Group, Paper, Stack, Text } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import type { InfiniteQueryObserverResult } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import type { AuthorListEntry } from '../../api/inboxTypes';
import { LabelBadges } from '../../features/inbox/components/badges';
import { ProviderIcon } from '../../features/inbox/components/ProviderIcon';
import { BlockedBadge } from '../../features/inbox/components/RecordSide';
import rowClasses from '../../features/inbox/components/rows.module.css';
import { VirtualList } from '../../features/inbox/components/VirtualList';
import type { InboxData } from '../../features/inbox/hooks/useInboxData';
import { useListKeyboard } from '../../features/inbox/hooks/useListKeyboard';
import { useInboxT } from '../../features/inbox/i18n';

// The author lists ({items|chats}/authors, settings labels/{id}/authors) and the author page's comments
// and chats, like the comment and chat lists: keyset pages in a virtualized list (the next page is asked
// for near the end), j/k ↑/↓ to move and Enter to open.

/** What the lists need of an infinite query (api/authors usePaged). */
export type PagedList = Pick<
  InfiniteQueryObserverResult,
  'hasNextPage' | 'isFetchingNextPage' | 'fetchNextPage'
>;

/** A virtualized, keyboard-navigable list of rows with ids; `open` is what Enter does on a row. */
export function KeyboardList<T extends { id: number }>({
  rows,
  list,
  label,
  estimateSize,
  open,
  renderRow,
}: {
  rows: T[];
  list: PagedList;
  label: string;
  estimateSize: number;
  open: (row: T) => void;
  renderRow: (row: T, focused: boolean) => ReactNode;
}) {
  const t = useInboxT();
  const ids = useMemo(() => rows.map((row) => row.id), [rows]);
  const nav = useListKeyboard(
    ids,
    {
      open: (index) => {
        const row = rows[index];
        if (row) open(row);
      },
    },
    { selectable: false },
  );
  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <VirtualList
        count={rows.length}
        getKey={(index) => rows[index]!.id}
        estimateSize={estimateSize}
        focusIndex={nav.state.focus}
        hasNextPage={list.hasNextPage}
        isFetchingNextPage={list.isFetchingNextPage}
        fetchNextPage={() => void list.fetchNextPage()}
        footer={t('list.end')}
        label={label}
        renderRow={(index) => renderRow(rows[index]!, nav.state.focus === index)}
      />
    </Paper>
  );
}

/** Authors in a virtualized list; Enter opens the focused author's page. */
export function AuthorList({
  rows,
  list,
  label,
  data,
}: {
  rows: AuthorListEntry[];
  list: PagedList;
  label: string;
  data: InboxData;
}) {
  const navigate = useNavigate();
  return (
    <KeyboardList
      rows={rows}
      list={list}
      label={label}
      estimateSize={68}
      open={(author) => navigate(pathFor('author', { id: author.id }))}
      renderRow={(author, focused) => <AuthorRow author={author} data={data} focused={focused} />}
    />
  );
}

export function AuthorRow({
  author,
  data,
  focused = false,
}: {
  author: AuthorListEntry;
  data: InboxData;
  focused?: boolean;
}) {
  const t = useInboxT();
  return (
    <Group
      gap="sm"
      wrap="nowrap"
      className={rowClasses.row}
      data-focused={focused || undefined}
      data-testid="author-row"
      data-author-id={author.id}
    >
      <Avatar src={author.image ?? undefined} radius="xl" color="indigo" alt="">
        {author.name.slice(0, 1)}
      </Avatar>
      <Stack gap={2} miw={0} style={{ flex: 1 }}>
        <Group gap={6} wrap="nowrap">
          <ProviderIcon provider={author.provider} size={16} withTooltip={false} />
          <Anchor component={Link} to={pathFor('author', { id: author.id })} fw={600} fz="sm" truncate="end">
            {author.name}
          </Anchor>
        </Group>
        <Group gap={4} wrap="wrap">
          <Text fz="xs" c="dimmed" data-testid="author-counts">
            {t('authors.counts', { items: author.items_count, chats: author.chats_count })}
          </Text>
          <BlockedBadge author={author} />
          <LabelBadges ids={author.labels} labelsById={data.labelsById} />
        </Group>
      </Stack>
    </Group>
  );
}
