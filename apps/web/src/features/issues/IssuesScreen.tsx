import { Anchor, Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { can } from '@otklik/shared';
import { IconPlus } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useMembers } from '../../api/inbox';
import { useIssues } from '../../api/issues';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { FilterSlot, useFilterSlot } from '../../shell/FilterSlot';
import { useShell } from '../../shell/ShellContext';
import { ISSUE_FILTER_KEYS, type IssueFilters, IssueFiltersForm } from './IssueFilters';
import { IssueFormModal } from './IssueFormModal';
import { IssueRow } from './IssueRow';

/**
 * Calls `load` when the element scrolls into view (the end of the list): the next page comes as the user
 * scrolls, like the inbox and authors lists; the "more" button stays for keyboards and old browsers.
 */
function useLoadOnView(load: () => void, active: boolean) {
  const ref = useRef<HTMLDivElement | null>(null);
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    const node = ref.current;
    if (!node || !active || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) latest.current();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [active]);
  return ref;
}

/** `issues`: the task list with its filters (saved filters of the route `issues`) and "my tasks". */
export default function IssuesScreen() {
  const { t } = useTranslation();
  const { config, actor } = useShell();
  const [search, setSearch] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const filterSlot = useFilterSlot();
  const members = useMembers();
  const filters = useMemo(() => {
    const out: IssueFilters = {};
    for (const key of ISSUE_FILTER_KEYS) {
      const v = search.get(key);
      if (v) out[key] = v;
    }
    return out;
  }, [search]);
  const mine = search.get('mine') === '1';
  const list = useIssues({ ...filters, ...(mine ? { mine: 1 } : {}) });
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  const more = list.hasNextPage && !list.isFetchingNextPage;
  const sentinel = useLoadOnView(() => {
    if (more) void list.fetchNextPage();
  }, more);
  const mayCreate = config.spaces.some((s) => can(actor, 'issues.edit', s.id));
  const people = useMemo(() => {
    const seen = new Map<number, { id: number; name: string }>();
    for (const m of members.data ?? []) seen.set(m.id, { id: m.id, name: m.name });
    return [...seen.values()];
  }, [members.data]);
  const memberName = (id: number | null) =>
    id === null ? t('shell.issues.unassigned') : (people.find((m) => m.id === id)?.name ?? `#${id}`);
  const apply = (next: IssueFilters) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(next)) if (v) params.set(k, v);
    if (mine) params.set('mine', '1');
    setSearch(params, { replace: true });
    filterSlot.close();
  };
  const applied = Object.keys(filters).length;

  return (
    <Stack gap="md" data-testid="issues-screen">
      <PageHeader
        title={t('shell.issues.title')}
        actions={
          mayCreate && (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setCreating(true)}
              data-testid="new-issue"
            >
              {t('shell.issues.create')}
            </Button>
          )
        }
      />
      <SegmentedControl
        value={mine ? 'my' : 'all'}
        onChange={(v) => {
          const params = new URLSearchParams(search);
          if (v === 'my') params.set('mine', '1');
          else params.delete('mine');
          setSearch(params, { replace: true });
        }}
        data={[
          { value: 'all', label: t('shell.issues.all') },
          { value: 'my', label: t('shell.issues.my') },
        ]}
        w={{ base: '100%', sm: 320 }}
        data-testid="issues-mine"
      />
      <FilterSlot keys={[...ISSUE_FILTER_KEYS]} title={t('shell.issues.filters.title')}>
        <IssueFiltersForm value={filters} onApply={apply} members={people} />
      </FilterSlot>
      {applied > 0 && (
        <Group gap="xs">
          <Anchor component="button" type="button" fz="sm" onClick={() => apply({})}>
            {t('shell.issues.filters.reset')}
          </Anchor>
        </Group>
      )}
      <QueryState queries={[list]}>
        {() =>
          rows.length === 0 ? (
            <Text c="dimmed" ta="center" py="xl" data-testid="issues-empty">
              {applied > 0 || mine ? t('shell.issues.emptyFiltered') : t('shell.issues.empty')}
            </Text>
          ) : (
            <Stack gap="xs">
              <Text fz="sm" c="dimmed" data-testid="issues-total">
                {t('shell.issues.total', { count: total })}
              </Text>
              {rows.map((issue) => (
                <IssueRow key={issue.id} issue={issue} memberName={memberName} />
              ))}
              {list.hasNextPage && (
                <div ref={sentinel} data-testid="issues-more-sentinel">
                  <Button
                    variant="default"
                    fullWidth
                    onClick={() => void list.fetchNextPage()}
                    loading={list.isFetchingNextPage}
                    data-testid="issues-more"
                  >
                    {t('shell.issues.more')}
                  </Button>
                </div>
              )}
            </Stack>
          )
        }
      </QueryState>
      {creating && <IssueFormModal opened={creating} onClose={() => setCreating(false)} />}
    </Stack>
  );
}
