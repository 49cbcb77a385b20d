import { Group, Paper, SegmentedControl, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { type AuthorScope, useAuthorsList } from '../../api/authors';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useInboxData } from '../../features/inbox/hooks/useInboxData';
import { useInboxT } from '../../features/inbox/i18n';
import { AuthorList } from './AuthorList';
import { useLiveAuthors } from './useLiveAuthors';

/**
 * {items|chats|issues}/authors — who wrote comments, messages or tasks the user sees (docs/product/screens-and-routes.md): a live,
 * virtualized, keyboard-navigable list; for tasks, the customers the visible tasks are about.
 */
export default function AuthorsScreen() {
  const t = useInboxT();
  const { t: tc } = useTranslation();
  const { pathname } = useLocation();
  const scope: AuthorScope = pathname.startsWith('/chats')
    ? 'chats'
    : pathname.startsWith('/issues')
      ? 'issues'
      : 'items';
  const [params, setParams] = useSearchParams();
  const data = useInboxData();
  const q = params.get('q') ?? '';
  const [debouncedQ] = useDebouncedValue(q, 300);
  const labelId = Number(params.get('label_id')) || undefined;
  const blocked = params.get('blocked') === '1' ? '1' : params.get('blocked') === '0' ? '0' : undefined;
  const objectId = Number(params.get('object_id')) || undefined;
  const list = useAuthorsList({
    scope,
    q: debouncedQ || undefined,
    label_id: labelId,
    blocked,
    object_id: objectId,
  });
  const rows = useMemo(() => (list.data?.pages ?? []).flatMap((p) => p.items), [list.data]);
  useLiveAuthors();
  const title = tc(`titles.${scope}-authors`);
  const setParam = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const labels = [...data.labelsById.values()];

  return (
    <Stack gap="md">
      <PageHeader title={title} />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t('authors.search')}
          aria-label={t('authors.search')}
          value={q}
          onChange={(e) => setParam('q', e.currentTarget.value)}
          style={{ flex: '1 1 220px' }}
          data-testid="authors-search"
        />
        {labels.length > 0 && (
          <Select
            placeholder={t('authors.label')}
            aria-label={t('authors.label')}
            data={labels.map((l) => ({ value: String(l.id), label: l.name }))}
            value={labelId ? String(labelId) : null}
            onChange={(v) => setParam('label_id', v)}
            clearable
            w={180}
          />
        )}
        <SegmentedControl
          size="xs"
          value={blocked ?? 'any'}
          onChange={(v) => setParam('blocked', v === 'any' ? null : v)}
          data={[
            { value: 'any', label: t('authors.any') },
            { value: '1', label: t('authors.blockedOnly') },
            { value: '0', label: t('authors.notBlocked') },
          ]}
          aria-label={t('authors.blockedFilter')}
        />
      </Group>
      {scope === 'issues' && (
        <Text fz="sm" c="dimmed" data-testid="authors-issues-hint">
          {t('authors.issuesHint')}
        </Text>
      )}
      <QueryState queries={[list]} retryLabel={t('delivery.retry')}>
        {() =>
          rows.length === 0 ? (
            <Paper withBorder p="xl" radius="md" data-testid="authors-empty">
              <Text ta="center" c="dimmed">
                {t('authors.empty')}
              </Text>
            </Paper>
          ) : (
            <AuthorList rows={rows} list={list} label={title} data={data} />
          )
        }
      </QueryState>
    </Stack>
  );
}
