import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { getProvider, isProviderId } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconChartBar, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useBots, useDeleteBot } from '../../../api/bots';
import { useObjects } from '../../../api/config';
import { ConfirmAction } from '../../../components/ConfirmAction';
import { PageHeader } from '../../../components/PageHeader';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { RecordNotFound } from '../../../shell/RecordNotFound';
import { BotForm } from './BotForm';

// Settings → chat-bots (issue 17): the space's bots with their account and state, delete; the form with
// the flow editor is BotForm.tsx; stats/bots is features/stats. Rules: docs/product/bots.md.

/** settings/bots */
export function BotsScreen() {
  const { t } = useTranslation();
  const { spaces, spaceId, setSpace } = useManagedSpace('bots.manage');
  const list = useBots(spaces.length > 0);
  const objects = useObjects(spaces.length > 0);
  const remove = useDeleteBot();
  if (spaces.length === 0) return <BotsOff />;
  const shown = (list.data?.items ?? []).filter((x) => x.space_id === spaceId);
  const accountOf = (id: number) => objects.data?.items.find((o) => o.id === id);

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('settings.bots.heading')}
        actions={
          <Group gap="xs">
            <Button
              variant="default"
              component={Link}
              to={pathFor('stats-bots', {}, { space_id: spaceId ?? undefined })}
              leftSection={<IconChartBar size={16} />}
              visibleFrom="sm"
            >
              {t('shell.stats.tabs.bots')}
            </Button>
            <Button
              component={Link}
              to={pathFor('settings-bots-create', {}, { space_id: spaceId ?? undefined })}
              leftSection={<IconPlus size={16} />}
              data-testid="bot-add"
            >
              {t('settings.bots.add')}
            </Button>
          </Group>
        }
      />
      <Text c="dimmed" fz="sm">
        {t('settings.bots.hint')}
      </Text>
      <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
      {list.isPending ? (
        <Center py={40}>
          <Loader />
        </Center>
      ) : list.error ? (
        <Alert color="red" variant="light" role="alert" title={t('settings.bots.loadError')}>
          <Group justify="space-between">
            <Text fz="sm">{list.error.message}</Text>
            <Button size="compact-sm" variant="white" onClick={() => void list.refetch()}>
              {t('settings.bots.retry')}
            </Button>
          </Group>
        </Alert>
      ) : shown.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text ta="center" c="dimmed" data-testid="bots-empty">
            {t('settings.bots.empty')}
          </Text>
        </Paper>
      ) : (
        <Paper withBorder radius="md" p={0}>
          {shown.map((x) => {
            const account = accountOf(x.object_id);
            return (
              <Group
                key={x.id}
                justify="space-between"
                p="sm"
                wrap="nowrap"
                style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                data-testid="bot-row"
              >
                <Stack gap={2} miw={0}>
                  <Group gap="xs" wrap="nowrap" miw={0}>
                    <Anchor
                      component={Link}
                      to={pathFor('settings-bot', { id: x.id })}
                      fz="sm"
                      fw={500}
                      truncate="end"
                    >
                      {x.name}
                    </Anchor>
                    <Badge size="sm" color={x.enabled ? 'teal.9' : 'gray.7'} style={{ flexShrink: 0 }}>
                      {x.enabled ? t('settings.bots.enabledBadge') : t('settings.bots.disabledBadge')}
                    </Badge>
                  </Group>
                  <Text fz="xs" c="dimmed" truncate="end">
                    {account
                      ? `${account.name} · ${isProviderId(account.provider) ? getProvider(account.provider).name : account.provider}`
                      : ''}
                    {account ? ' · ' : ''}
                    {t('settings.bots.steps', { count: x.steps.length })}
                  </Text>
                </Stack>
                <ConfirmAction
                  title={t('settings.bots.deleteTitle', { name: x.name })}
                  message={t('settings.bots.deleteText')}
                  confirmLabel={t('settings.bots.delete')}
                  onConfirm={() => remove.mutateAsync(x.id)}
                >
                  {(open) => (
                    <Tooltip label={t('settings.bots.delete')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        onClick={open}
                        aria-label={t('settings.bots.delete')}
                        data-testid="bot-delete"
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </ConfirmAction>
              </Group>
            );
          })}
        </Paper>
      )}
    </Stack>
  );
}

/** settings/bots/create and settings/bots/:id */
export function BotScreen() {
  const { t } = useTranslation();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const { spaces, spaceId } = useManagedSpace('bots.manage');
  const list = useBots(spaces.length > 0);
  if (spaces.length === 0) return <BotsOff />;
  if (list.isPending) {
    return (
      <Center py={40}>
        <Loader />
      </Center>
    );
  }
  if (list.error) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('settings.bots.loadError')}>
        {list.error.message}
      </Alert>
    );
  }
  const bot = id ? list.data?.items.find((x) => x.id === id) : undefined;
  if (id && !bot) return <RecordNotFound title={t('settings.bots.notFound')} />;
  return <BotForm key={id ?? 'new'} bot={bot} spaceId={bot?.space_id ?? spaceId ?? 0} />;
}

function BotsOff() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('settings.bots.heading')} />
      <Alert color="gray" variant="light" data-testid="bots-off">
        {t('settings.bots.off')}
      </Alert>
    </Stack>
  );
}
