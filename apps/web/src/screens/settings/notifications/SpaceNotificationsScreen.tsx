import { Anchor, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { defaultFrequency, type SpaceNotificationSettingsWire } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useKeptMutation } from '../../../api/invalidating';
import {
  notificationKeys,
  saveSpaceNotificationSettings,
  useSlack,
  useSpaceNotificationSettings,
  useTelegramLink,
} from '../../../api/notifications';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { SettingsCard } from '../../../features/settings-kit/SettingsCard';
import { OffNote } from '../../../features/settings-kit/SettingsList';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import type { SlackReturnState } from '../../callback/SlackCallback';
import { SlackCard } from './SlackCard';
import { fromMatrix, type Matrix, offeredChannels, SubscriptionMatrix, toMatrix } from './SubscriptionMatrix';

const HOURS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);

/** settings/notifications (issue 18): a space's default subscriptions and quiet hours, for administrators. */
export default function SpaceNotificationsScreen() {
  const { t } = useTranslation();
  // Back from installing Slack: the space it was installed for.
  const back = (useLocation().state as SlackReturnState | null)?.slackSpaceId;
  const { spaces, spaceId, setSpace } = useManagedSpace('settings.manage', back);
  return (
    <Stack gap="md" data-testid="space-notifications-screen">
      <PageHeader title={t('shell.notify.space.title')} description={t('shell.notify.space.description')} />
      <Anchor
        component={Link}
        to={pathFor('settings-subscriptions')}
        fz="sm"
        data-testid="my-subscriptions-link"
      >
        {t('shell.notify.space.mine')}
      </Anchor>
      {spaceId === null ? (
        <OffNote testId="space-notifications-admins">{t('shell.notify.space.adminsOnly')}</OffNote>
      ) : (
        <>
          <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
          <SlackCard key={`slack${spaceId}`} spaceId={spaceId} />
          <SpaceSettings key={spaceId} spaceId={spaceId} />
        </>
      )}
    </Stack>
  );
}

function SpaceSettings({ spaceId }: { spaceId: number }) {
  const settings = useSpaceNotificationSettings(spaceId);
  if (!settings.data) return null;
  return <SpaceSettingsForm spaceId={spaceId} initial={settings.data} />;
}

function SpaceSettingsForm({
  spaceId,
  initial,
}: {
  spaceId: number;
  initial: SpaceNotificationSettingsWire;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [matrix, setMatrix] = useState<Matrix>(toMatrix(initial.defaults));
  const telegram = useTelegramLink();
  const slack = useSlack(spaceId);
  const [from, setFrom] = useState<string | null>(initial.quiet_from);
  const [to, setTo] = useState<string | null>(initial.quiet_to);
  const [zone, setZone] = useState(initial.time_zone);
  const save = useKeptMutation({
    mutationFn: () =>
      saveSpaceNotificationSettings({
        space_id: spaceId,
        defaults: fromMatrix(matrix),
        quiet_from: from && to ? from : null,
        quiet_to: from && to ? to : null,
        time_zone: zone.trim() || 'UTC',
      }),
    onSuccess: (data) => {
      queryClient.setQueryData(notificationKeys.space(spaceId), data);
      showSaved(t('shell.notify.space.saved'));
    },
    onError: showError,
  });
  const hours = HOURS.map((h) => ({ value: h, label: h }));
  return (
    <Stack gap="md">
      <Text fw={600}>{t('shell.notify.space.defaults')}</Text>
      <SubscriptionMatrix
        value={matrix}
        fallback={defaultFrequency}
        onChange={setMatrix}
        testId="space-defaults"
        channels={offeredChannels(telegram.data?.available, slack.data?.installed)}
      />
      <SettingsCard title={t('shell.notify.space.quiet')}>
        <Group gap="sm" align="flex-end">
          <Select
            label={t('shell.notify.space.quietFrom')}
            placeholder={t('shell.notify.space.quietOff')}
            data={hours}
            value={from}
            onChange={setFrom}
            clearable
            w={150}
            data-testid="quiet-from"
          />
          <Select
            label={t('shell.notify.space.quietTo')}
            placeholder={t('shell.notify.space.quietOff')}
            data={hours}
            value={to}
            onChange={setTo}
            clearable
            w={150}
            data-testid="quiet-to"
          />
          <TextInput
            label={t('shell.notify.space.timeZone')}
            value={zone}
            onChange={(e) => setZone(e.currentTarget.value)}
            w={200}
            maxLength={64}
          />
        </Group>
      </SettingsCard>
      <Group>
        <Button loading={save.isPending} onClick={() => save.mutate()} data-testid="space-notifications-save">
          {t('shell.notify.space.save')}
        </Button>
      </Group>
    </Stack>
  );
}
