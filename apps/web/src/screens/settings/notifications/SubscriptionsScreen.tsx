import { Alert, Button, Group, MultiSelect, Stack, Switch, Text } from '@mantine/core';
import { defaultFrequency, type TelegramCodeWire } from '@otklik/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKeptMutation } from '../../../api/invalidating';
import {
  notificationKeys,
  saveSubscriptions,
  saveWatches,
  telegramCode,
  unlinkTelegram,
  useSlack,
  useSubscriptions,
  useTelegramLink,
  useWatches,
} from '../../../api/notifications';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { SettingsCard } from '../../../features/settings-kit/SettingsCard';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { askDesktopPermission, desktopPermission, setSound, soundOn } from '../../../realtime/desktop';
import { useShell } from '../../../shell/ShellContext';
import { ChannelHealthAlert } from './ChannelHealthAlert';
import { fromMatrix, type Matrix, offeredChannels, SubscriptionMatrix, toMatrix } from './SubscriptionMatrix';

/** settings/subscriptions (issue 18): my events × channels × frequencies per space; browser pop-ups. */
export default function SubscriptionsScreen() {
  const { t } = useTranslation();
  const { spaces, spaceId, setSpace } = useManagedSpace();
  return (
    <Stack gap="md" data-testid="subscriptions-screen">
      <PageHeader
        title={t('shell.notify.subscriptions.title')}
        description={t('shell.notify.subscriptions.description')}
      />
      <ChannelHealthAlert />
      <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
      <BrowserPermission />
      <TelegramLink />
      {spaceId !== null && <MySubscriptions key={spaceId} spaceId={spaceId} />}
      {spaceId !== null && <Watches key={`w${spaceId}`} spaceId={spaceId} />}
    </Stack>
  );
}

function BrowserPermission() {
  const { t } = useTranslation();
  const [permission, setPermission] = useState(desktopPermission());
  const [sound, setSoundState] = useState(soundOn());
  return (
    <SettingsCard
      title={t('shell.notify.subscriptions.browserTitle')}
      hint={t('shell.notify.subscriptions.browserHint')}
    >
      {permission === 'unsupported' ? (
        <Text fz="sm">{t('shell.notify.subscriptions.browserUnsupported')}</Text>
      ) : permission === 'granted' ? (
        <Text fz="sm" c="green.8" data-testid="browser-granted">
          {t('shell.notify.subscriptions.browserGranted')}
        </Text>
      ) : permission === 'denied' ? (
        <Alert color="yellow" variant="light">
          {t('shell.notify.subscriptions.browserDenied')}
        </Alert>
      ) : (
        <Group>
          {/* Asked only from this click, never on load. */}
          <Button
            variant="light"
            h="auto"
            py={6}
            styles={{ label: { whiteSpace: 'normal' } }}
            onClick={() => void askDesktopPermission().then(setPermission)}
            data-testid="browser-allow"
          >
            {t('shell.notify.subscriptions.browserAllow')}
          </Button>
        </Group>
      )}
      <Switch
        label={t('shell.notify.subscriptions.sound')}
        checked={sound}
        onChange={(e) => {
          setSound(e.currentTarget.checked);
          setSoundState(e.currentTarget.checked);
        }}
        data-testid="notify-sound"
      />
    </SettingsCard>
  );
}

function TelegramLink() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const link = useTelegramLink();
  const [code, setCode] = useState<TelegramCodeWire | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['notifications', 'telegram'] });
  const ask = useKeptMutation({ mutationFn: telegramCode, onSuccess: setCode, onError: showError });
  const unlink = useKeptMutation({
    mutationFn: unlinkTelegram,
    onSuccess: () => {
      setCode(null);
      refresh();
    },
    onError: showError,
  });
  if (!link.data?.available) return null;
  return (
    <SettingsCard
      title={t('shell.notify.telegram.title')}
      hint={t('shell.notify.telegram.hint')}
      testId="telegram-link"
    >
      {link.data.linked ? (
        <Group>
          <Text fz="sm" c="green.8" data-testid="telegram-linked">
            {t('shell.notify.telegram.linked')}
          </Text>
          <Button
            variant="subtle"
            color="red"
            size="xs"
            loading={unlink.isPending}
            onClick={() => unlink.mutate()}
          >
            {t('shell.notify.telegram.unlink')}
          </Button>
        </Group>
      ) : code ? (
        <Stack gap={6}>
          <Text fz="sm" data-testid="telegram-code">
            {t('shell.notify.telegram.codeHint', { code: code.code })}
          </Text>
          <Group>
            {code.link && (
              <Button
                component="a"
                href={code.link}
                target="_blank"
                rel="noreferrer"
                variant="light"
                size="xs"
              >
                {t('shell.notify.telegram.open')}
              </Button>
            )}
            <Button variant="subtle" size="xs" onClick={refresh}>
              {t('shell.notify.telegram.check')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group>
          <Button
            variant="light"
            loading={ask.isPending}
            onClick={() => ask.mutate()}
            data-testid="telegram-link-start"
          >
            {t('shell.notify.telegram.link')}
          </Button>
        </Group>
      )}
    </SettingsCard>
  );
}

function MySubscriptions({ spaceId }: { spaceId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const subs = useSubscriptions(spaceId);
  const telegram = useTelegramLink();
  const slack = useSlack(spaceId);
  const [edited, setEdited] = useState<Matrix | null>(null);
  const save = useKeptMutation({
    mutationFn: (matrix: Matrix) => saveSubscriptions({ space_id: spaceId, items: fromMatrix(matrix) }),
    onSuccess: (data) => {
      queryClient.setQueryData(notificationKeys.subscriptions(spaceId), data);
      setEdited(null);
      showSaved(t('shell.notify.subscriptions.saved'));
    },
    onError: showError,
  });
  if (!subs.data) return null;
  const current = edited ?? toMatrix(subs.data.items);
  return (
    <Stack gap="sm">
      <SubscriptionMatrix
        value={current}
        fallback={defaultFrequency}
        onChange={setEdited}
        testId="my-subscriptions"
        channels={offeredChannels(telegram.data?.available, slack.data?.installed)}
      />
      <Group>
        <Button
          disabled={edited === null}
          loading={save.isPending}
          onClick={() => save.mutate(current)}
          data-testid="subscriptions-save"
        >
          {t('shell.notify.subscriptions.save')}
        </Button>
      </Group>
    </Stack>
  );
}

/** new_item and comments_filter: which accounts and which of my saved comment filters I watch. */
function Watches({ spaceId }: { spaceId: number }) {
  const { t } = useTranslation();
  const { objects } = useShell();
  const queryClient = useQueryClient();
  const watch = useWatches(spaceId);
  const [accounts, setAccounts] = useState<string[] | null>(null);
  const [filters, setFilters] = useState<string[] | null>(null);
  const save = useKeptMutation({
    mutationFn: () =>
      saveWatches({
        space_id: spaceId,
        object_ids: (accounts ?? []).map(Number),
        filter_ids: (filters ?? []).map(Number),
      }),
    onSuccess: (data) => {
      queryClient.setQueryData(['notifications', 'watches', spaceId], data);
      showSaved(t('shell.notify.watches.saved'));
    },
    onError: showError,
  });
  if (!watch.data) return null;
  const accountValue = accounts ?? watch.data.object_ids.map(String);
  const filterValue = filters ?? watch.data.filter_ids.map(String);
  const accountOptions = (objects?.items ?? [])
    .filter((o) => o.space_id === spaceId)
    .map((o) => ({ value: String(o.id), label: o.name }));
  return (
    <SettingsCard
      title={t('shell.notify.watches.title')}
      hint={t('shell.notify.watches.hint')}
      testId="notify-watches"
    >
      <MultiSelect
        label={t('shell.notify.watches.accounts')}
        data={accountOptions}
        value={accountValue}
        onChange={(v) => {
          setAccounts(v);
          if (filters === null) setFilters(filterValue);
        }}
        searchable
        clearable
        data-testid="watch-accounts"
      />
      {watch.data.filters.length > 0 ? (
        <MultiSelect
          label={t('shell.notify.watches.filters')}
          data={watch.data.filters.map((f) => ({ value: String(f.id), label: f.name }))}
          value={filterValue}
          onChange={(v) => {
            setFilters(v);
            if (accounts === null) setAccounts(accountValue);
          }}
          clearable
          data-testid="watch-filters"
        />
      ) : (
        <Text fz="xs" c="dimmed">
          {t('shell.notify.watches.noFilters')}
        </Text>
      )}
      <Group>
        <Button
          disabled={accounts === null && filters === null}
          loading={save.isPending}
          onClick={() => save.mutate()}
          data-testid="watches-save"
        >
          {t('shell.notify.watches.save')}
        </Button>
      </Group>
    </SettingsCard>
  );
}
