import {
  Badge,
  Button,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import {
  createSpaceBodySchema,
  SPACE_FLAGS,
  type SpaceDetailsView,
  type SpaceFlag,
  updateSpaceBodySchema,
} from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCreateSpace, useSetSpaceFlags, useSpaceDetails, useUpdateSpace } from '../../../api/spaces';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { SettingsSection, UsageLine } from '../../../components/SettingsSection';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { useTariffName } from '../../../components/useTariffName';
import { OffNote } from '../../../features/settings-kit/SettingsList';
import { useZodForm } from '../../../forms/useZodForm';
import { useLocale } from '../../../i18n/useLocale';
import { useShell } from '../../../shell/ShellContext';

const TIME_ZONES: string[] = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['Europe/Moscow', 'UTC'];
  }
})();

function NameAndZone({ details }: { details: SpaceDetailsView }) {
  const { t } = useTranslation();
  const update = useUpdateSpace();
  const { form, handleSubmit, setServerErrors } = useZodForm(updateSpaceBodySchema, {
    name: details.name,
    timezone: details.timezone,
  });
  const zones = useMemo(
    () => (TIME_ZONES.includes(details.timezone) ? TIME_ZONES : [details.timezone, ...TIME_ZONES]),
    [details.timezone],
  );
  return (
    <SettingsSection title={t('settings.space.general')} testId="space-general">
      <form
        onSubmit={handleSubmit(async (values) => {
          try {
            await update.mutateAsync({ id: details.id, ...values });
            form.resetDirty();
            showSaved(t('settings.common.saved'));
          } catch (error) {
            if (!setServerErrors(error)) showError(error);
          }
        })}
      >
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label={t('settings.space.name')}
              {...form.getInputProps('name')}
              data-testid="space-name"
            />
            <Select
              label={t('settings.space.timezone')}
              description={t('settings.space.timezoneHint')}
              data={zones}
              searchable
              allowDeselect={false}
              {...form.getInputProps('timezone')}
              data-testid="space-timezone"
            />
          </SimpleGrid>
          <Group>
            <Button
              type="submit"
              loading={update.isPending}
              disabled={!form.isDirty()}
              data-testid="space-save"
            >
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </SettingsSection>
  );
}

function TariffAndUsage({ details }: { details: SpaceDetailsView }) {
  const { t } = useTranslation();
  const tariffName = useTariffName();
  const locale = useLocale();
  const expires = new Date(details.expires_at * 1000).toLocaleDateString(
    locale === 'ru' ? 'ru-RU' : 'en-GB',
    {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    },
  );
  return (
    <SettingsSection title={t('settings.space.tariff')} testId="space-tariff">
      <Group gap="xs">
        <Text fw={600} data-testid="space-tariff-name">
          {tariffName(details.tariff)}
        </Text>
        <Badge variant="light" color={details.is_trial ? 'yellow' : 'green'}>
          {details.is_trial ? t('settings.space.trial') : t('settings.space.paid')}
        </Badge>
        <Text c="dimmed" fz="sm">
          {t('settings.space.until', { date: expires })}
        </Text>
      </Group>
      <UsageLine
        label={t('settings.space.users')}
        used={details.usage.users}
        max={details.tariff.max_users}
      />
      <UsageLine
        label={t('settings.space.accounts')}
        used={details.usage.accounts}
        max={details.tariff.max_accounts}
      />
      <Group>
        <Button component={Link} to={pathFor('settings-billing')} variant="light">
          {t('settings.space.toBilling')}
        </Button>
      </Group>
    </SettingsSection>
  );
}

function Features({ details }: { details: SpaceDetailsView }) {
  const { t } = useTranslation();
  const tariffName = useTariffName();
  const setFlags = useSetSpaceFlags();
  const [pending, setPending] = useState<SpaceFlag | null>(null);
  const toggle = async (flag: SpaceFlag, on: boolean) => {
    setPending(flag);
    try {
      await setFlags.mutateAsync({ id: details.id, flags: { [flag]: on } });
    } catch (error) {
      showError(error);
    } finally {
      setPending(null);
    }
  };
  return (
    <SettingsSection title={t('settings.space.features')} testId="space-features">
      <Text c="dimmed" fz="sm">
        {t('settings.space.featuresHint', { tariff: tariffName(details.tariff) })}
      </Text>
      <Stack gap="sm">
        {SPACE_FLAGS.map((flag) => {
          const inTariff = details.tariff.features.includes(flag);
          const on = details.flags[flag];
          return (
            <Switch
              key={flag}
              checked={on}
              disabled={(!inTariff && !on) || pending === flag}
              onChange={(event) => void toggle(flag, event.currentTarget.checked)}
              label={t(`settings.space.flags.${flag}.name`)}
              description={
                inTariff
                  ? t(`settings.space.flags.${flag}.hint`)
                  : `${t(`settings.space.flags.${flag}.hint`)} ${t('settings.space.notInTariff')}`
              }
              data-testid={`space-flag-${flag}`}
            />
          );
        })}
      </Stack>
    </SettingsSection>
  );
}

function CreateSpace({ onCreated }: { onCreated: (id: number) => void }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const create = useCreateSpace();
  const { form, handleSubmit, setServerErrors } = useZodForm(createSpaceBodySchema, { name: '' });
  return (
    <>
      <Button variant="light" onClick={() => setOpened(true)} data-testid="space-create">
        {t('settings.space.create')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('settings.space.createTitle')}>
        <form
          onSubmit={handleSubmit(async (values) => {
            try {
              const created = await create.mutateAsync(values);
              setOpened(false);
              form.reset();
              onCreated(created.id);
              showSaved(t('settings.space.created', { name: created.name }));
            } catch (error) {
              if (!setServerErrors(error)) showError(error);
            }
          })}
        >
          <Stack gap="md">
            <Text fz="sm" c="dimmed">
              {t('settings.space.createHint')}
            </Text>
            <TextInput
              label={t('settings.space.name')}
              data-autofocus
              {...form.getInputProps('name')}
              data-testid="space-create-name"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpened(false)}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={create.isPending} data-testid="space-create-submit">
                {t('settings.space.createSubmit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/**
 * /settings/other: the space itself — name, time zone, tariff with usage against its limits, the
 * feature flags its tariff allows — and creating another space (issue 14 item 1).
 */
export default function SpaceSettingsScreen() {
  const { t } = useTranslation();
  const { config } = useShell();
  const adminSpaces = config.spaces.filter((space) => space.roles.settings);
  const [chosen, setChosen] = useState<number | null>(null);
  const spaceId = chosen ?? adminSpaces[0]?.id ?? null;
  const details = useSpaceDetails(spaceId);

  return (
    <Stack gap="lg" maw={820}>
      <PageHeader
        title={t('titles.settings-other')}
        description={t('settings.space.hint')}
        actions={<CreateSpace onCreated={setChosen} />}
      />
      {spaceId === null ? (
        <OffNote testId="space-none">{t('settings.space.none')}</OffNote>
      ) : (
        <>
          <SpaceSelect spaces={adminSpaces} value={spaceId} onChange={setChosen} />
          <QueryState queries={[details]}>
            {() => (
              <Stack gap="lg" key={details.data!.id}>
                <NameAndZone details={details.data!} />
                <TariffAndUsage details={details.data!} />
                <Features details={details.data!} />
              </Stack>
            )}
          </QueryState>
        </>
      )}
    </Stack>
  );
}
