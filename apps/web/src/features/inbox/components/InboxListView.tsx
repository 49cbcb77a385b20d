import { Alert, Anchor, Button, Checkbox, Group, Kbd, Paper, Stack, Text, Tooltip } from '@mantine/core';
import type { BulkAction, MacroDto } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconKeyboard, IconRefresh, IconUsers } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useChatsList, useItemsList } from '../../../api/inbox';
import type { InboxChat, InboxItem } from '../../../api/inboxTypes';
import { useMe } from '../../../api/me';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { socket } from '../../../realtime/instance';
import { FilterSlot, useFilterSlot } from '../../../shell/FilterSlot';
import { useRouteId } from '../../../shell/routeParams';
import { useNow, useShell } from '../../../shell/ShellContext';
import { useBulkActions } from '../hooks/useBulkActions';
import { useInboxData } from '../hooks/useInboxData';
import { useListKeyboard } from '../hooks/useListKeyboard';
import { useInboxLive, useLiveListInserts } from '../hooks/useLive';
import { useInboxT } from '../i18n';
import { colleagueAnswering } from '../model/bulkLock';
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
  withSearchText,
} from '../model/filters';
import { recalledList, rememberList } from '../model/listMemory';
import { notifyProblem } from '../notify';
import { CloseWhileTypingModal } from './ActionsBar';
import { BulkBar } from './BulkBar';
import { FiltersForm } from './FiltersForm';
import { InboxSearchField, SearchScope } from './InboxSearch';
import { MacroDialog, MacroRunner } from './MacroRunner';
import { MentionsList } from './MentionsList';
import { ChatRow, ItemRow } from './rows';
import { ViewTabs } from './ViewTabs';
import { VirtualList } from './VirtualList';

// The comment list (items) and the chat list (chats): filters in the address and the top bar's drawer,
// keyset pages in a virtualized list, live rows from the socket, keyboard work and bulk actions.

type Row = InboxItem | InboxChat;

export function InboxListView({ kind, split = false }: { kind: ListKind; split?: boolean }) {
  const t = useInboxT();
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const [urlParams, setUrlParams] = useSearchParams();
  // Split view (InboxSplit): beside an open record the address is the record's, so the list keeps the
  // filters it was opened with (listMemory, as the record's j/k use), and changing them goes back to
  // the list's own address.
  const openId = useRouteId();
  const onRecord = split && openId !== null;
  const params = useMemo(
    () => (onRecord ? new URLSearchParams(recalledList(kind)) : urlParams),
    [onRecord, kind, urlParams],
  );
  const setParams = useCallback(
    (next: URLSearchParams) => {
      if (onRecord) navigate({ pathname: pathFor(kind), search: next.toString() });
      else setUrlParams(next);
    },
    [onRecord, navigate, kind, setUrlParams],
  );
  const { user, isAdmin, objects } = useShell();
  const data = useInboxData();
  const nowS = useNow(30_000);
  const filterSlot = useFilterSlot();

  const search = params.toString();
  /** `?view=mentions`: Mentions of me instead of the filtered list (issue 13). */
  const mentionsView = params.get('view') === 'mentions';
  const filters = useMemo(() => parseFilters(search, kind), [search, kind]);
  // The item page's j/k walk this list in this order (model/listMemory.ts).
  useEffect(() => {
    if (!onRecord) rememberList(kind, search);
  }, [onRecord, kind, search]);
  const reversed = user.settings.reversed === true;
  const query = useMemo(() => filtersToApiQuery(filters, kind, reversed), [filters, kind, reversed]);

  const items = useItemsList(query, kind === 'items' && !mentionsView);
  const chats = useChatsList(query, kind === 'chats' && !mentionsView);
  const list = kind === 'items' ? items : chats;
  const rows: Row[] = useMemo(
    () => (list.data?.pages ?? []).flatMap((page) => page.items as Row[]),
    [list.data],
  );
  const ids = useMemo(() => rows.map((row) => row.id), [rows]);

  useInboxLive();
  const live = useLiveListInserts(kind, query, filters, reversed);

  const bulk = useBulkActions(kind);
  const myId = useMe().data?.id;
  /** Rows about to be closed while a colleague types an answer to one of them: asked first. */
  const [confirming, setConfirming] = useState<{ rows: Row[]; name: string } | null>(null);

  const pathOf = useCallback(
    (row: Row) =>
      kind === 'items' ? pathFor('item', { id: row.id }) : pathFor('chat-messages', { id: row.id }),
    [kind],
  );

  /** docs/product/roles.md: closing after a reply is an operator's; without one, a moderator's. The server decides too. */
  const closeRows = async (targets: Row[], confirmed = false) => {
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
    const typing = confirmed
      ? null
      : colleagueAnswering(
          allowed.map((row) => row.id),
          socket.holder,
          myId,
          kind === 'items' ? 'item' : 'chat',
        );
    if (typing) {
      setConfirming({ rows: allowed, name: typing.name });
      return;
    }
    // One request, answered per id, with Undo in the toast (issue 13).
    if (
      await bulk.run(
        { kind: 'close' },
        allowed.map((row) => row.id),
      )
    )
      nav.dispatch({ type: 'clear' });
  };

  /** Tag, assign or snooze the selection; the selection stays for a next action. */
  const actOnSelection = (action: BulkAction) => bulk.run(action, nav.state.selected);

  const nav = useListKeyboard(
    ids,
    {
      open: (index) => {
        const row = rows[index];
        if (row) navigate(pathOf(row));
      },
      close: (indexes) => void closeRows(indexes.map((i) => rows[i]!).filter(Boolean)),
    },
    { recordOpen: onRecord },
  );

  // The open record is the focused row of the split list: x selects it, and it stays in view.
  const openIndex = onRecord ? ids.indexOf(openId) : -1;
  const { dispatch: navDispatch } = nav;
  // One function for every row (a row passes its id): rows stay memoized while the list scrolls.
  const toggleRow = useCallback((id: number) => navDispatch({ type: 'toggle', id }), [navDispatch]);
  useEffect(() => {
    if (openIndex >= 0) navDispatch({ type: 'focus', index: openIndex });
  }, [openIndex, navDispatch]);

  const apply = (next: InboxFilters) => {
    setParams(filtersToSearch(next, kind, params));
    filterSlot.close();
  };
  const applied = countAppliedFilters(filters, kind);
  // The selected rows as last seen: a row that leaves the list for a moment (a re-read, a live change)
  // keeps its place in the selection and the bar stays open with it.
  const seenRows = useRef(new Map<number, Row>());
  const rowsById = useMemo(() => new Map(rows.map((row) => [row.id, row])), [rows]);
  const selectedRows = useMemo(() => {
    const seen = seenRows.current;
    const picked = new Set(nav.state.selected);
    for (const id of seen.keys()) if (!picked.has(id)) seen.delete(id);
    const out: Row[] = [];
    for (const id of nav.state.selected) {
      const row = rowsById.get(id) ?? seen.get(id);
      if (!row) continue;
      seen.set(id, row);
      out.push(row);
    }
    return out;
  }, [nav.state.selected, rowsById]);
  // Another filter is another list: the selection of the previous one ends.
  const listKey = `${kind}?${search}`;
  const shownList = useRef(listKey);
  useEffect(() => {
    if (shownList.current === listKey) return;
    shownList.current = listKey;
    navDispatch({ type: 'clear' });
    seenRows.current.clear();
  }, [listKey, navDispatch]);
  const [macroRun, setMacroRun] = useState<{ macro: MacroDto; itemIds: number[] } | null>(null);
  const hasAccounts = (objects?.items.length ?? 0) > 0;
  const title = tc(kind === 'items' ? 'titles.items' : 'titles.chats');

  return (
    <Stack
      gap="md"
      // The bulk bar wraps to three lines on a phone: the last rows stay reachable above it.
      pb={selectedRows.length > 0 ? { base: 180, sm: 80 } : 0}
    >
      <PageHeader
        title={title}
        actions={
          <>
            <InboxSearchField
              value={filters.q}
              onSearch={(q) => setParams(filtersToSearch(withSearchText(filters, kind, q), kind, params))}
            />
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
      <ViewTabs
        kind={kind}
        filters={filters}
        meId={myId ?? null}
        onChange={(next) => {
          const keep = new URLSearchParams(params);
          keep.delete('view');
          setParams(filtersToSearch(next, kind, keep));
        }}
        mentions={mentionsView}
        onMentions={() => setParams(new URLSearchParams({ view: 'mentions' }))}
      />
      <SearchScope filters={filters} kind={kind} />
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

      {live.pending > 0 && !mentionsView && (
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

      {mentionsView ? (
        <MentionsList kind={kind} />
      ) : (
        <QueryState queries={[list]} retryLabel={t('delivery.retry')}>
          {() =>
            rows.length === 0 ? (
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
                <SelectAllBar
                  label={t('bulk.selectAll', { count: rows.length })}
                  total={rows.length}
                  selected={selectedRows.length}
                  onChange={(all) => nav.dispatch(all ? { type: 'select', ids } : { type: 'clear' })}
                />
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
                      onToggle: toggleRow,
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
            )
          }
        </QueryState>
      )}

      {selectedRows.length > 0 && (
        <BulkBar
          kind={kind}
          rows={selectedRows}
          data={data}
          busy={bulk.busy}
          onClose={() => void closeRows(selectedRows)}
          onAction={actOnSelection}
          onClear={() => nav.dispatch({ type: 'clear' })}
        >
          {/* A macro runs on the selected comments of one space (macros belong to a space). */}
          {kind === 'items' && macroSpaceOf(selectedRows as InboxItem[]) !== null && (
            <MacroRunner
              itemIds={selectedRows.map((row) => row.id)}
              spaceId={macroSpaceOf(selectedRows as InboxItem[])!}
              onOpen={(macro) => setMacroRun({ macro, itemIds: selectedRows.map((row) => row.id) })}
            />
          )}
        </BulkBar>
      )}
      {/* Outside the bar: the run closes or moves the selected rows, the result stays until read. */}
      {macroRun && (
        <MacroDialog
          macro={macroRun.macro}
          itemIds={macroRun.itemIds}
          onClose={() => setMacroRun(null)}
          onDone={() => nav.dispatch({ type: 'clear' })}
        />
      )}
      <CloseWhileTypingModal
        name={confirming?.name ?? null}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const rows = confirming?.rows ?? [];
          setConfirming(null);
          void closeRows(rows, true);
        }}
      />
    </Stack>
  );
}

/**
 * "Select all loaded (N)": the rows this list has loaded (its pages so far), not every match on the
 * server — a bulk action then names exactly the rows the operator has seen.
 */
function SelectAllBar({
  label,
  total,
  selected,
  onChange,
}: {
  label: string;
  total: number;
  selected: number;
  onChange: (all: boolean) => void;
}) {
  return (
    <Group px="md" py={6} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Checkbox
        size="xs"
        label={label}
        checked={selected > 0 && selected === total}
        indeterminate={selected > 0 && selected < total}
        onChange={(event) => onChange(event.currentTarget.checked)}
        data-testid="select-all"
      />
    </Group>
  );
}

/** The one space every selected comment is in; null when the selection spans several. */
function macroSpaceOf(rows: InboxItem[]): number | null {
  const spaces = new Set(rows.map((row) => row.space_id));
  return spaces.size === 1 ? [...spaces][0]! : null;
}
