import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Kbd,
  Loader,
  Paper,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { IconKeyboard, IconRefresh, IconUsers } from '@tabler/icons-react';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useChatsList, useItemsList, useSetChatsStatus, useSetItemsStatus } from '../../../api/inbox';
import type { InboxChat, InboxItem } from '../../../api/inboxTypes';
import { FilterSlot, useFilterSlot } from '../../../app/filters/FilterSlot';
import { useNow, useShell } from '../../../app/shell/ShellContext';
import { showError } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { useInboxData } from '../hooks/useInboxData';
import { useListKeyboard } from '../hooks/useListKeyboard';
import { useInboxLive, useLiveListInserts } from '../hooks/useLive';
import { useInboxT } from '../i18n';
import {
  APPLIED_FILTER_COUNTERS,
  countAppliedFilters,
  EMPTY_FILTERS,
  filterKeys,
  filtersToApiQuery,
  filtersToSearch,
  type InboxFilters,
  type ListKind,
  parseFilters,
} from '../model/filters';
import { notifyDone, notifyProblem } from '../notify';
import { BulkBar } from './BulkBar';
import { FiltersForm } from './FiltersForm';
import { ChatRow, ItemRow } from './rows';
import { VirtualList } from './VirtualList';

// The comment list (items) and the chat list (chats): filters in the address and the top bar's drawer,
// keyset pages in a virtualized list, live rows from the socket, keyboard work and bulk actions.

type Row = InboxItem | InboxChat;

export function InboxListView({ kind }: { kind: ListKind }) {
  const t = useInboxT();
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { user, isAdmin, objects } = useShell();
  const data = useInboxData();
  const nowS = useNow(30_000);
  const filterSlot = useFilterSlot();

  const search = params.toString();
  const filters = useMemo(() => parseFilters(search, kind), [search, kind]);
  const reversed = user.settings.reversed === true;
  const query = useMemo(() => filtersToApiQuery(filters, kind, reversed), [filters, kind, reversed]);

  const items = useItemsList(query, kind === 'items');
  const chats = useChatsList(query, kind === 'chats');
  const list = kind === 'items' ? items : chats;
  const rows: Row[] = useMemo(
    () => (list.data?.pages ?? []).flatMap((page) => page.items as Row[]),
    [list.data],
  );
  const ids = useMemo(() => rows.map((row) => row.id), [rows]);

  useInboxLive();
  const live = useLiveListInserts(kind, query, filters, reversed);

  const closeItems = useSetItemsStatus();
  const closeChats = useSetChatsStatus();

  const pathOf = useCallback(
    (row: Row) =>
      kind === 'items' ? pathFor('item', { id: row.id }) : pathFor('chat-messages', { id: row.id }),
    [kind],
  );

  /** SPEC §6: closing after a reply is an operator's; without one, a moderator's. The server decides too. */
  const closeRows = async (targets: Row[]) => {
    const ability = kind === 'items' ? 'items' : 'messages';
    const allowed = targets.filter((row) => {
      const replied =
        kind === 'items'
          ? (row as InboxItem).first_reply_at !== null
          : (row as InboxChat).last_message_is_own;
      return (
        row.status !== 'closed' &&
        row.status !== 'deleted' &&
        (replied
          ? data.canIn(row.space_id, `${ability}.close`)
          : data.canIn(row.space_id, `${ability}.closeWithoutReply`))
      );
    });
    if (allowed.length === 0) {
      notifyProblem('status.noReplyYet');
      return;
    }
    try {
      const body = { ids: allowed.map((row) => row.id), status: 'closed' as const };
      if (kind === 'items') await closeItems.mutateAsync(body);
      else await closeChats.mutateAsync(body);
      notifyDone(t('bulk.closed', { count: allowed.length }));
      nav.dispatch({ type: 'clear' });
    } catch (error) {
      showError(error);
    }
  };

  const nav = useListKeyboard(ids, {
    open: (index) => {
      const row = rows[index];
      if (row) navigate(pathOf(row));
    },
    close: (indexes) => void closeRows(indexes.map((i) => rows[i]!).filter(Boolean)),
  });

  const apply = (next: InboxFilters) => {
    setParams(filtersToSearch(next, kind, params));
    filterSlot.close();
  };
  const applied = countAppliedFilters(filters, kind);
  const selectedRows = rows.filter((row) => nav.state.selected.includes(row.id));
  const hasAccounts = (objects?.items.length ?? 0) > 0;
  const title = tc(kind === 'items' ? 'titles.items' : 'titles.chats');

  return (
    <Stack gap="md" pb={selectedRows.length > 0 ? 80 : 0}>
      <PageHeader
        title={title}
        actions={
          <>
            <Tooltip label={t('list.keyboard')} multiline w={260}>
              <Group gap={4} visibleFrom="sm" c="dimmed" aria-label={t('list.keyboard')}>
                <IconKeyboard size={16} />
                <Kbd size="xs">j</Kbd>
                <Kbd size="xs">k</Kbd>
                <Kbd size="xs">x</Kbd>
                <Kbd size="xs">e</Kbd>
              </Group>
            </Tooltip>
            <Button
              component={Link}
              to={pathFor(kind === 'items' ? 'items-authors' : 'chats-authors')}
              variant="default"
              size="xs"
              leftSection={<IconUsers size={14} />}
            >
              {t('list.authors')}
            </Button>
          </>
        }
      />
      <FilterSlot keys={filterKeys(kind)} count={APPLIED_FILTER_COUNTERS[kind]} title={t('filters.title')}>
        <FiltersForm kind={kind} filters={filters} onApply={apply} data={data} />
      </FilterSlot>

      {applied > 0 && (
        <Group gap="xs" data-testid="applied-filters">
          <Text fz="sm" c="dimmed">
            {t('filters.applied', { count: applied })}
          </Text>
          <Anchor component="button" type="button" fz="sm" onClick={() => apply(EMPTY_FILTERS(kind))}>
            {t('filters.reset')}
          </Anchor>
        </Group>
      )}

      {live.pending > 0 && (
        <Alert variant="light" color="indigo" py="xs">
          <Group justify="space-between">
            <Text fz="sm">{t('list.newRows', { count: live.pending })}</Text>
            <Button
              size="compact-sm"
              variant="light"
              leftSection={<IconRefresh size={14} />}
              onClick={live.showPending}
            >
              {t('list.showNew')}
            </Button>
          </Group>
        </Alert>
      )}

      {list.isPending ? (
        <Center py={60}>
          <Loader />
        </Center>
      ) : list.error ? (
        <Alert color="red" variant="light" role="alert">
          <Group justify="space-between">
            <Text fz="sm">{list.error.message}</Text>
            <Button size="compact-sm" variant="white" onClick={() => void list.refetch()}>
              {t('delivery.retry')}
            </Button>
          </Group>
        </Alert>
      ) : rows.length === 0 ? (
        <Paper withBorder radius="md" p="xl" data-testid="list-empty">
          <Stack align="center" gap="sm" ta="center">
            <Text fw={600}>{applied > 0 ? t('list.emptyFiltered') : t('list.empty')}</Text>
            {applied > 0 ? (
              <Button variant="light" onClick={() => apply(EMPTY_FILTERS(kind))}>
                {t('list.resetFilters')}
              </Button>
            ) : (
              !hasAccounts && (
                <>
                  <Text c="dimmed" fz="sm" maw={420}>
                    {t('list.emptyHint')}
                  </Text>
                  {isAdmin && (
                    <Button component={Link} to={pathFor('settings-accounts-add')}>
                      {t('list.connect')}
                    </Button>
                  )}
                </>
              )
            )}
          </Stack>
        </Paper>
      ) : (
        <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
          <VirtualList
            count={rows.length}
            getKey={(index) => rows[index]!.id}
            estimateSize={kind === 'items' ? 104 : 96}
            focusIndex={nav.state.focus}
            hasNextPage={list.hasNextPage}
            isFetchingNextPage={list.isFetchingNextPage}
            fetchNextPage={() => void list.fetchNextPage()}
            footer={t('list.end')}
            label={title}
            renderRow={(index) => {
              const row = rows[index]!;
              const common = {
                to: pathOf(row),
                focused: nav.state.focus === index,
                selected: nav.state.selected.includes(row.id),
                selectable: true,
                onToggle: () => nav.dispatch({ type: 'toggle', id: row.id }),
                faded: !filters.status.includes(row.status),
                data,
                nowS,
              };
              return kind === 'items' ? (
                <ItemRow item={row as InboxItem} {...common} />
              ) : (
                <ChatRow chat={row as InboxChat} {...common} />
              );
            }}
          />
        </Paper>
      )}

      {selectedRows.length > 0 && (
        <BulkBar
          kind={kind}
          rows={selectedRows}
          data={data}
          onClose={() => void closeRows(selectedRows)}
          onClear={() => nav.dispatch({ type: 'clear' })}
        />
      )}
    </Stack>
  );
}
