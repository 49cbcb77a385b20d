import { Badge, Button, Group, Stack } from '@mantine/core';
import { getProvider, isProviderId } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconChartBar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useBots, useDeleteBot } from '../../../api/bots';
import { useObjects } from '../../../api/config';
import {
  AddButton,
  DeleteRowAction,
  ListHeader,
  ListRow,
  RowLink,
  SettingsList,
  SettingsOff,
} from '../../../features/settings-kit/SettingsList';
import { SpaceRecordScreen } from '../../../features/settings-kit/SpaceRecordScreen';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { BotForm } from './BotForm';

// Settings → chat-bots (issue 17): the space's bots with their account and state, delete; the form with
// the flow editor is BotForm.tsx; stats/bots is features/stats. Rules: docs/product/bots.md.

/** settings/bots */
export function BotsScreen() {
  const { t } = useTranslation();
  const space = useManagedSpace('bots.manage');
  const { spaces, spaceId } = space;
  const list = useBots(spaces.length > 0);
  const objects = useObjects(spaces.length > 0);
  const remove = useDeleteBot();
  if (spaces.length === 0) return <BotsOff />;
  const shown = (list.data?.items ?? []).filter((x) => x.space_id === spaceId);
  const accountOf = (id: number) => objects.data?.items.find((o) => o.id === id);

  return (
    <Stack gap="lg">
      <ListHeader
        title={t('settings.bots.heading')}
        hint={t('settings.bots.hint')}
        space={space}
        actions={
          <>
            <Button
              variant="default"
              component={Link}
              to={pathFor('stats-bots', {}, { space_id: spaceId ?? undefined })}
              leftSection={<IconChartBar size={16} />}
              visibleFrom="sm"
            >
              {t('shell.stats.tabs.bots')}
            </Button>
            <AddButton
              to={pathFor('settings-bots-create', {}, { space_id: spaceId ?? undefined })}
              label={t('settings.bots.add')}
              testId="bot-add"
            />
          </>
        }
      />
      <SettingsList
        query={list}
        rows={shown}
        empty={t('settings.bots.empty')}
        emptyTestId="bots-empty"
        errorTitle={t('settings.bots.loadError')}
        retryLabel={t('settings.bots.retry')}
      >
        {(rows) =>
          rows.map((x) => {
            const account = accountOf(x.object_id);
            return (
              <ListRow
                key={x.id}
                testId="bot-row"
                main={
                  <Group gap="xs" wrap="nowrap" miw={0}>
                    <RowLink to={pathFor('settings-bot', { id: x.id })}>{x.name}</RowLink>
                    <Badge size="sm" color={x.enabled ? 'teal.9' : 'gray.7'} style={{ flexShrink: 0 }}>
                      {x.enabled ? t('settings.bots.enabledBadge') : t('settings.bots.disabledBadge')}
                    </Badge>
                  </Group>
                }
                subtitle={
                  <>
                    {account
                      ? `${account.name} · ${isProviderId(account.provider) ? getProvider(account.provider).name : account.provider}`
                      : ''}
                    {account ? ' · ' : ''}
                    {t('settings.bots.steps', { count: x.steps.length })}
                  </>
                }
                actions={
                  <DeleteRowAction
                    title={t('settings.bots.deleteTitle', { name: x.name })}
                    message={t('settings.bots.deleteText')}
                    label={t('settings.bots.delete')}
                    onConfirm={() => remove.mutateAsync(x.id)}
                    testId="bot-delete"
                  />
                }
              />
            );
          })
        }
      </SettingsList>
    </Stack>
  );
}

/** settings/bots/create and settings/bots/:id */
export function BotScreen() {
  const { t } = useTranslation();
  return (
    <SpaceRecordScreen
      ability="bots.manage"
      useList={useBots}
      off={<BotsOff />}
      notFoundTitle={t('settings.bots.notFound')}
      errorTitle={t('settings.bots.loadError')}
    >
      {(bot, spaceId, key) => <BotForm key={key} bot={bot} spaceId={spaceId} />}
    </SpaceRecordScreen>
  );
}

function BotsOff() {
  const { t } = useTranslation();
  return <SettingsOff title={t('settings.bots.heading')} text={t('settings.bots.off')} testId="bots-off" />;
}
