import { Alert, Button, Group, Select, Text } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKeptMutation } from '../../../api/invalidating';
import {
  chooseSlackChannel,
  notificationKeys,
  removeSlack,
  slackInstallUrl,
  slackKey,
  useSlack,
  useSlackChannels,
} from '../../../api/notifications';
import { showError, showSaved } from '../../../components/notify';
import { SettingsCard } from '../../../features/settings-kit/SettingsCard';
import { OffNote } from '../../../features/settings-kit/SettingsList';

/**
 * Slack in settings/notifications (issue 18): install the instance's Slack app into a workspace for this
 * space (Slack's consent page in this tab, back through /callback/slack), choose the channel, see Slack's
 * last error (a revoked token, a deleted channel), install again or remove. Without the instance's Slack
 * app (SLACK_CLIENT_ID) it only says so.
 */
export function SlackCard({ spaceId }: { spaceId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const slack = useSlack(spaceId);
  const data = slack.data;
  const installed = data?.installed === true;
  const channels = useSlackChannels(spaceId, installed && !data?.error);
  const [channel, setChannel] = useState<string | null>(null);
  const update = (next: typeof data) => {
    queryClient.setQueryData(slackKey(spaceId), next);
    void queryClient.invalidateQueries({ queryKey: ['notifications', 'channels'] });
    void queryClient.invalidateQueries({ queryKey: notificationKeys.space(spaceId) });
  };
  const install = useKeptMutation({
    mutationFn: () => slackInstallUrl(spaceId, `${window.location.origin}${pathFor('callback-slack')}`),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: showError,
  });
  const choose = useKeptMutation({
    mutationFn: (id: string) => chooseSlackChannel({ space_id: spaceId, channel_id: id }),
    onSuccess: (next) => {
      update(next);
      setChannel(null);
      showSaved(t('shell.notify.slack.channelSaved', { channel: next.channel_name ?? '' }));
    },
    onError: showError,
  });
  const remove = useKeptMutation({
    mutationFn: () => removeSlack(spaceId),
    onSuccess: update,
    onError: showError,
  });
  if (!data) return null;
  const selected = channel ?? data.channel_id;
  return (
    <SettingsCard
      title={t('shell.notify.slack.title')}
      hint={t('shell.notify.slack.hint')}
      testId="slack-card"
    >
      {!data.configured && !installed ? (
        <OffNote testId="slack-not-configured">{t('shell.notify.slack.notConfigured')}</OffNote>
      ) : !installed ? (
        <Group>
          <Button
            variant="light"
            loading={install.isPending}
            onClick={() => install.mutate()}
            data-testid="slack-install"
          >
            {t('shell.notify.slack.install')}
          </Button>
        </Group>
      ) : (
        <>
          <Text fz="sm" data-testid="slack-installed">
            {data.channel_name
              ? t('shell.notify.slack.postsTo', { team: data.team_name, channel: data.channel_name })
              : t('shell.notify.slack.installedNoChannel', { team: data.team_name })}
          </Text>
          {data.error && (
            <Alert color="red" variant="light" data-testid="slack-error">
              {t('shell.notify.slack.failing', { error: data.error })}
            </Alert>
          )}
          {!data.error && (
            <Group gap="sm" align="flex-end">
              <Select
                label={t('shell.notify.slack.channel')}
                placeholder={t('shell.notify.slack.channelPick')}
                data={(channels.data?.items ?? []).map((c) => ({
                  value: c.id,
                  label: `${c.is_private ? '🔒' : '#'}${c.name}`,
                }))}
                value={selected}
                onChange={setChannel}
                searchable
                nothingFoundMessage={channels.isLoading ? '…' : t('shell.notify.slack.noChannels')}
                w={260}
                data-testid="slack-channel"
              />
              <Button
                disabled={!channel || channel === data.channel_id}
                loading={choose.isPending}
                onClick={() => channel && choose.mutate(channel)}
                data-testid="slack-channel-save"
              >
                {t('shell.notify.slack.channelSave')}
              </Button>
            </Group>
          )}
          <Group gap="sm">
            {data.configured && (
              <Button
                variant="default"
                size="xs"
                loading={install.isPending}
                onClick={() => install.mutate()}
                data-testid="slack-reinstall"
              >
                {t('shell.notify.slack.reinstall')}
              </Button>
            )}
            <Button
              variant="subtle"
              color="red"
              size="xs"
              loading={remove.isPending}
              onClick={() => remove.mutate()}
              data-testid="slack-remove"
            >
              {t('shell.notify.slack.remove')}
            </Button>
          </Group>
        </>
      )}
    </SettingsCard>
  );
}
