import { Button, Group, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { refreshStats, statsReadAt } from '../../api/stats';

/**
 * "Figures as of 15:04:12 · Refresh" under the statistics frame: when the oldest figures on screen were
 * read (the server may serve an answer up to STATS_FRESH_S old; docs/statistics.md "Freshness"), and a
 * button that reads every figure on screen anew.
 */
export function StatsFreshness() {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const readAt = useSyncExternalStore(
    useCallback((changed: () => void) => client.getQueryCache().subscribe(changed), [client]),
    () => statsReadAt(client),
  );
  const fetching = useIsFetching({ queryKey: ['stats'] }) > 0;
  const [refreshing, setRefreshing] = useState(false);
  if (readAt === null) return null;
  const time = new Intl.DateTimeFormat(i18n.language, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(readAt);
  return (
    <Group gap="xs" justify="flex-end" data-testid="stats-freshness">
      <Text c="dimmed" fz="sm" data-testid="stats-read-at">
        {t('shell.stats.readAt', { time })}
      </Text>
      <Button
        variant="subtle"
        size="compact-sm"
        leftSection={<IconRefresh size={14} />}
        loading={refreshing}
        disabled={fetching && !refreshing}
        onClick={() => {
          setRefreshing(true);
          void refreshStats(client).finally(() => setRefreshing(false));
        }}
        data-testid="stats-refresh"
      >
        {t('shell.stats.refresh')}
      </Button>
    </Group>
  );
}
