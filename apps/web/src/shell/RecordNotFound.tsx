import { Alert, Button, Center, Group, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMoodEmpty } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { ApiError } from '../api/errors';
import { listPathAbove } from './routeParams';

/** The API answered that the record does not exist (or is not visible to the caller). */
export function isNotFoundError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * The one "not found / no access" state of a record screen: a malformed id (the router's IdGuard) or
 * an id the API does not know. Says so at once and offers the way back to the list.
 */
export function RecordNotFound({ title }: { title?: ReactNode }) {
  const { t } = useTranslation();
  const back = listPathAbove(useLocation().pathname, useParams().id);
  return (
    <Center mih={320} p="lg">
      <Stack align="center" ta="center" gap="sm" maw={480} data-testid="record-not-found" role="alert">
        <ThemeIcon size={56} radius="xl" variant="light" color="gray">
          <IconMoodEmpty size={28} />
        </ThemeIcon>
        <Title order={1} fz={24}>
          {title ?? t('system.recordNotFound')}
        </Title>
        <Text c="dimmed">{t('system.recordNotFoundText')}</Text>
        <Button component={Link} to={back} variant="default">
          {back === '/' ? t('common.toHome') : t('system.backToList')}
        </Button>
      </Stack>
    </Center>
  );
}

interface RecordQuery {
  isPending: boolean;
  error: Error | null;
  refetch: () => unknown;
}

/** What a record screen shows before it has its record: loading, not found, or the failure with a retry. */
export function RecordLoading({ query, notFoundTitle }: { query: RecordQuery; notFoundTitle?: ReactNode }) {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <Center py={80}>
        <Loader />
      </Center>
    );
  }
  if (isNotFoundError(query.error)) return <RecordNotFound title={notFoundTitle} />;
  return (
    <Alert color="red" variant="light" role="alert">
      <Group justify="space-between" gap="xs">
        <Text fz="sm">{query.error?.message}</Text>
        <Button size="compact-sm" variant="white" onClick={() => void query.refetch()}>
          {t('system.retry')}
        </Button>
      </Group>
    </Alert>
  );
}
