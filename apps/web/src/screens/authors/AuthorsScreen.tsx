import {
  Alert,
  Anchor,
  Avatar,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { pathFor } from '@otklik/shared/routes';
import { IconSearch } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { type AuthorScope, useAuthorsList } from '../../api/authors';
import type { AuthorListEntry } from '../../api/inboxTypes';
import { PageHeader } from '../../components/PageHeader';
import { ProviderIcon } from '../../features/inbox/components/ProviderIcon';
import { BlockedBadge } from '../../features/inbox/components/RecordSide';
import { type InboxData, useInboxData } from '../../features/inbox/hooks/useInboxData';
import { useInboxT } from '../../features/inbox/i18n';

/** {items|chats|issues}/authors — who wrote comments, messages or tasks the user sees (SPEC §2). */
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
  const setParam = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const labels = [...data.labelsById.values()];

  return (
    <Stack gap="md">
      <PageHeader title={tc(`titles.${scope}-authors`)} />
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
        <Alert variant="light" color="gray">
          {t('authors.issuesSoon')}
        </Alert>
      )}
      {list.isPending ? (
        <Center py={60}>
          <Loader />
        </Center>
      ) : list.error ? (
        <Alert color="red" variant="light">
          {list.error.message}
        </Alert>
      ) : rows.length === 0 ? (
        scope !== 'issues' && (
          <Paper withBorder p="xl" radius="md">
            <Text ta="center" c="dimmed">
              {t('authors.empty')}
            </Text>
          </Paper>
        )
      ) : (
        <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
          {rows.map((author) => (
            <AuthorRow key={author.id} author={author} data={data} />
          ))}
        </Paper>
      )}
      {list.hasNextPage && (
        <Center>
          <Button
            variant="default"
            loading={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            {t('authors.loadMore')}
          </Button>
        </Center>
      )}
    </Stack>
  );
}

export function AuthorRow({ author, data }: { author: AuthorListEntry; data: InboxData }) {
  const t = useInboxT();
  const labels = author.labels.map((id) => data.labelsById.get(id)).filter((l) => l !== undefined);
  return (
    <Group
      gap="sm"
      wrap="nowrap"
      p="sm"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      data-testid="author-row"
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
          <Text fz="xs" c="dimmed">
            {t('authors.counts', { items: author.items_count, chats: author.chats_count })}
          </Text>
          <BlockedBadge author={author} />
          {labels.map((label) => (
            <Badge
              key={label.id}
              size="xs"
              variant="dot"
              color={label.color ?? 'gray'}
              style={{ textTransform: 'none' }}
            >
              {label.name}
            </Badge>
          ))}
        </Group>
      </Stack>
    </Group>
  );
}
