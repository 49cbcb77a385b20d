import { Alert, Button, Group, Paper, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { SpaceEmailSettingsWire } from '@otklik/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors';
import { useKeptMutation } from '../../../api/invalidating';
import {
  saveEmailSettings,
  sendTestEmail,
  useEmailPreview,
  useEmailSettings,
} from '../../../api/notifications';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { OffNote } from '../../../features/settings-kit/SettingsList';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';

/**
 * settings/email (issue 18): the sender name and address of the space's notification emails, a test
 * email to oneself through the configured mailer, and the notification email's preview in ru and en.
 * Administrators only (settings.manage).
 */
export default function EmailSettingsScreen() {
  const { t } = useTranslation();
  const { spaces, spaceId, setSpace } = useManagedSpace('settings.manage');
  return (
    <Stack gap="md" data-testid="email-settings-screen">
      <PageHeader title={t('shell.notify.email.title')} description={t('shell.notify.email.description')} />
      {spaceId === null ? (
        <OffNote testId="email-settings-admins">{t('shell.notify.email.adminsOnly')}</OffNote>
      ) : (
        <>
          <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
          <SpaceEmail key={spaceId} spaceId={spaceId} />
          <Preview key={`p${spaceId}`} spaceId={spaceId} />
        </>
      )}
    </Stack>
  );
}

function SpaceEmail({ spaceId }: { spaceId: number }) {
  const settings = useEmailSettings(spaceId);
  if (!settings.data) return null;
  return <SpaceEmailForm spaceId={spaceId} initial={settings.data} />;
}

/** The instance's own sender (MAIL_FROM) is what `from` is while the space has chosen nothing. */
function SpaceEmailForm({ spaceId, initial }: { spaceId: number; initial: SpaceEmailSettingsWire }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState(initial.from_name ?? '');
  const [address, setAddress] = useState(initial.from_address ?? '');
  const [current, setCurrent] = useState(initial);
  const [addressError, setAddressError] = useState<string | null>(null);
  const save = useKeptMutation({
    mutationFn: () =>
      saveEmailSettings({ space_id: spaceId, from_name: name || null, from_address: address || null }),
    onSuccess: (data) => {
      setAddressError(null);
      setCurrent(data);
      queryClient.setQueryData(['notifications', 'email', spaceId], data);
      void queryClient.invalidateQueries({ queryKey: ['notifications', 'email', spaceId, 'preview'] });
      showSaved(t('shell.notify.email.saved'));
    },
    onError: (error: unknown) => {
      if (error instanceof ApiError && error.fields.from_address) setAddressError(error.fields.from_address);
      else showError(error);
    },
  });
  const test = useKeptMutation({
    mutationFn: () => sendTestEmail(spaceId),
    onSuccess: (data) => showSaved(t('shell.notify.email.testSent', { to: data.to })),
    onError: showError,
  });
  const dirty = name !== (initial.from_name ?? '') || address !== (initial.from_address ?? '');
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        {!current.smtp && (
          <Alert color="yellow" variant="light" data-testid="email-no-smtp">
            {t('shell.notify.email.noSmtp')}
          </Alert>
        )}
        <Group gap="sm" align="flex-start" wrap="wrap">
          <TextInput
            label={t('shell.notify.email.fromName')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={100}
            w={{ base: '100%', sm: 260 }}
            data-testid="email-from-name"
          />
          <TextInput
            label={t('shell.notify.email.fromAddress')}
            type="email"
            value={address}
            onChange={(e) => {
              setAddress(e.currentTarget.value);
              setAddressError(null);
            }}
            error={addressError}
            maxLength={254}
            w={{ base: '100%', sm: 300 }}
            data-testid="email-from-address"
          />
        </Group>
        <Text fz="sm" data-testid="email-current-from">
          {t('shell.notify.email.current', { from: current.from })}
        </Text>
        <Group>
          <Button
            disabled={!dirty && !save.isError}
            loading={save.isPending}
            onClick={() => save.mutate()}
            data-testid="email-save"
          >
            {t('shell.notify.email.save')}
          </Button>
          <Button
            variant="light"
            loading={test.isPending}
            onClick={() => test.mutate()}
            data-testid="email-test"
          >
            {t('shell.notify.email.test')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function Preview({ spaceId }: { spaceId: number }) {
  const { t, i18n } = useTranslation();
  const [locale, setLocale] = useState<'ru' | 'en'>(i18n.language.startsWith('en') ? 'en' : 'ru');
  const preview = useEmailPreview(spaceId, locale);
  return (
    <Paper withBorder p="md" data-testid="email-preview">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Text fw={600} fz="sm">
            {t('shell.notify.email.preview')}
          </Text>
          <SegmentedControl
            size="xs"
            value={locale}
            onChange={(v) => setLocale(v === 'en' ? 'en' : 'ru')}
            data={[
              { value: 'ru', label: t('shell.notify.email.localeRu') },
              { value: 'en', label: t('shell.notify.email.localeEn') },
            ]}
            data-testid="email-preview-locale"
          />
        </Group>
        {preview.data && (
          <>
            <Text fz="sm" data-testid="email-preview-subject">
              {t('shell.notify.email.previewSubject', { subject: preview.data.subject })}
            </Text>
            {/* The email’s own HTML, isolated: no scripts run in it (no allow-scripts). */}
            <iframe
              title={t('shell.notify.email.preview')}
              sandbox="allow-same-origin"
              srcDoc={preview.data.html}
              style={{ width: '100%', height: 260, border: '1px solid var(--mantine-color-gray-3)' }}
              data-testid="email-preview-frame"
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}
