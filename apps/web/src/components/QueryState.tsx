import { Alert, Button, Center, Group, Loader, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface QueryLike {
  isPending: boolean;
  error: Error | null;
  refetch: () => unknown;
}

/**
 * Loading and error states of the queries a screen needs; the children render once all have data. A
 * screen may name the failure (`errorTitle`) and the retry button (`retryLabel`) in its own words.
 */
export function QueryState({
  queries,
  children,
  errorTitle,
  retryLabel,
}: {
  queries: QueryLike[];
  children: () => ReactNode;
  errorTitle?: string;
  retryLabel?: string;
}) {
  const { t } = useTranslation();
  const failed = queries.find((query) => query.error);
  if (failed?.error) {
    return (
      <Alert color="red" variant="light" role="alert" title={errorTitle}>
        <Group justify="space-between" gap="xs">
          <Text fz="sm">{failed.error.message}</Text>
          <Button size="compact-sm" variant="white" onClick={() => void failed.refetch()}>
            {retryLabel ?? t('system.retry')}
          </Button>
        </Group>
      </Alert>
    );
  }
  if (queries.some((query) => query.isPending)) {
    return (
      <Center py={60}>
        <Loader />
      </Center>
    );
  }
  return <>{children()}</>;
}
