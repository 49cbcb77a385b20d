import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { listConnectableProviders, type ProviderEntry } from '@otklik/shared';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { type ConnectableProvider, useConnectableProviders } from '../../../api/accounts';
import { PageHeader } from '../../../components/PageHeader';
import { ProviderIcon } from '../../../features/inbox/components/ProviderIcon';
import { useInboxT } from '../../../features/inbox/i18n';
import { useLocale } from '../../../i18n/useLocale';
import { ConnectModal } from './ConnectModal';

/**
 * settings/accounts/add — the catalogue of networks (docs/product/entities.md). What this server connects comes from
 * GET /v1/providers/connectable (a connector exists, and how it connects): the sandbox with a name, sites
 * without a public API with an ingestion token, messengers with a bot token, VK with its OAuth popup or
 * keys. The rest of the catalogue is marked "coming soon".
 */
export default function AddAccountScreen() {
  const t = useInboxT();
  const locale = useLocale();
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<ProviderEntry | null>(null);
  const connectable = useConnectableProviders();
  const ways = useMemo(
    () => new Map((connectable.data ?? []).map((item) => [item.id, item] as const)),
    [connectable.data],
  );
  const isReady = (entry: ProviderEntry) => ways.has(entry.id);

  const providers = useMemo(() => {
    const all = listConnectableProviders();
    // Connectable first, the sandbox on top: a fresh install starts there.
    return [...all].sort((a, b) => {
      const rank = (e: ProviderEntry) => (e.id === 'sandbox' ? 0 : ways.has(e.id) ? 1 : 2);
      return rank(a) - rank(b);
    });
  }, [ways]);
  const needle = query.trim().toLowerCase();
  const shown = needle
    ? providers.filter((e) =>
        `${e.name} ${e.longName[locale]} ${e.description[locale]}`.toLowerCase().includes(needle),
      )
    : providers;

  return (
    <Stack gap="lg">
      <PageHeader title={t('accounts.add')} description={t('accounts.catalogue')} />
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('accounts.search')}
        aria-label={t('accounts.search')}
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        maw={360}
      />
      {connectable.isPending && (
        <Center py="xl">
          <Loader />
        </Center>
      )}
      {connectable.isError && (
        <Alert color="red" variant="light" data-testid="providers-error">
          <Stack gap="xs" align="flex-start">
            <Text fz="sm">{t('accounts.loadFailed', { error: connectable.error.message })}</Text>
            <Button size="compact-sm" variant="white" color="red" onClick={() => void connectable.refetch()}>
              {t('delivery.retry')}
            </Button>
          </Stack>
        </Alert>
      )}
      {connectable.isSuccess && (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" data-testid="providers-ready">
          {shown.filter(isReady).map((entry) => (
            <ProviderCard
              key={entry.id}
              entry={entry}
              how={ways.get(entry.id)}
              onConnect={() => setPicked(entry)}
            />
          ))}
        </SimpleGrid>
      )}
      {connectable.isSuccess && shown.some((entry) => !isReady(entry)) && (
        <Stack gap="xs">
          <Group gap="xs">
            <Title order={2} fz="md">
              {t('accounts.comingSoon')}
            </Title>
            <Text fz="sm" c="dimmed">
              {t('accounts.comingSoonHint')}
            </Text>
          </Group>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" data-testid="providers-soon">
            {shown
              .filter((entry) => !isReady(entry))
              .map((entry) => (
                <ProviderCard key={entry.id} entry={entry} how={undefined} onConnect={() => undefined} />
              ))}
          </SimpleGrid>
        </Stack>
      )}
      {picked && ways.has(picked.id) && (
        <ConnectModal entry={picked} how={ways.get(picked.id)!} onClose={() => setPicked(null)} />
      )}
    </Stack>
  );
}

function ProviderCard({
  entry,
  how,
  onConnect,
}: {
  entry: ProviderEntry;
  /** How the server connects it; undefined: not yet. */
  how: ConnectableProvider | undefined;
  onConnect: () => void;
}) {
  const t = useInboxT();
  const locale = useLocale();
  const ready = how !== undefined;
  const kinds = [
    ...entry.comments.map((k) => t(`accounts.kinds.${k}`)),
    ...(entry.messages ? [t('accounts.kinds.messages')] : []),
  ];
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      data-testid={`provider-${entry.id}`}
      style={{ opacity: ready ? 1 : 0.75 }}
    >
      <Stack gap="xs" h="100%" justify="space-between">
        <Stack gap={6}>
          <Group gap="sm" wrap="nowrap">
            <ProviderIcon provider={entry.id} size={36} withTooltip={false} />
            <Stack gap={0} miw={0}>
              <Text fw={600} truncate="end">
                {entry.name}
              </Text>
              <Text fz="xs" c="dimmed" truncate="end">
                {entry.longName[locale]}
              </Text>
            </Stack>
          </Group>
          <Text fz="sm">{entry.description[locale]}</Text>
          <Text fz="xs" c="dimmed">
            {kinds.join(', ')}
          </Text>
        </Stack>
        {ready ? (
          <Button
            variant={entry.id === 'sandbox' ? 'filled' : 'light'}
            onClick={onConnect}
            data-testid={`connect-${entry.id}`}
          >
            {t('accounts.connect')}
          </Button>
        ) : (
          <Group>
            <Badge color="gray" variant="light" style={{ flexShrink: 0 }} data-testid="coming-soon-badge">
              {t('accounts.comingSoon')}
            </Badge>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
