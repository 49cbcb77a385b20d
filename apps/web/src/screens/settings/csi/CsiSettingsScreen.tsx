import { Badge, Button, Group, NumberInput, Select, Stack, Switch, Text, Textarea } from '@mantine/core';
import { type CsiAccount, type CsiSettingsBody, csiSettingsBody } from '@otklik/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCsiAccounts, useSaveCsiAccount } from '../../../api/csi';
import { type FieldErrors, issueErrors, showSaveError } from '../../../components/fieldErrors';
import { ModalForm } from '../../../components/ModalForm';
import { showError, showSaved } from '../../../components/notify';
import { PageNotice } from '../../../components/PageNotice';
import { ProviderIcon, providerName } from '../../../features/inbox/components/ProviderIcon';
import { ListHeader, ListRow, SettingsList } from '../../../features/settings-kit/SettingsList';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { useMessage } from '../../../i18n/useLocale';

// settings/csi (issue 21): the space's accounts with private messages, each with its satisfaction
// survey switched on or off; "Set up" opens the texts (ru/en), the answer window and the period.

const bodyOf = (a: CsiAccount): CsiSettingsBody => ({
  enabled: a.enabled,
  language: a.language,
  texts: a.texts,
  window_hours: a.window_hours,
  period_days: a.period_days,
});

export default function CsiSettingsScreen() {
  const { t } = useTranslation();
  const space = useManagedSpace('csi.manage');
  const { spaceId } = space;
  const accounts = useCsiAccounts(spaceId);
  const save = useSaveCsiAccount();
  const [editing, setEditing] = useState<CsiAccount | null>(null);
  const toggle = (a: CsiAccount, enabled: boolean) =>
    save.mutate(
      { object_id: a.object_id, ...bodyOf(a), enabled },
      { onSuccess: () => showSaved(t('settings.common.saved')), onError: (e) => showError(e) },
    );
  if (spaceId === null)
    return (
      <PageNotice
        title={t('settings.csi.heading')}
        text={t('settings.csi.unavailable')}
        testId="csi-unavailable"
      />
    );
  return (
    <Stack gap="lg">
      <ListHeader
        title={t('settings.csi.heading')}
        hint={t('settings.csi.hint')}
        space={space}
        actions={null}
      />
      <SettingsList
        query={accounts}
        rows={accounts.data?.accounts ?? []}
        empty={t('settings.csi.noAccounts')}
      >
        {(rows) =>
          rows.map((a) => (
            <ListRow
              key={a.object_id}
              testId="csi-account"
              wrap="wrap"
              gap="sm"
              actionsGap="sm"
              main={
                <Group gap="sm" wrap="nowrap" miw={0}>
                  <ProviderIcon provider={a.provider} size={32} />
                  <Stack gap={0} miw={0}>
                    <Text fw={500} fz="sm" truncate="end">
                      {a.name}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      {providerName(a.provider)} ·{' '}
                      {a.buttons ? t('settings.csi.buttons') : t('settings.csi.digits')}
                    </Text>
                  </Stack>
                </Group>
              }
              actions={
                <>
                  <Badge color={a.enabled ? 'green' : 'gray'} variant="light">
                    {a.enabled ? t('settings.csi.on') : t('settings.csi.off')}
                  </Badge>
                  <Switch
                    aria-label={t('settings.csi.enabled')}
                    checked={a.enabled}
                    onChange={(e) => toggle(a, e.currentTarget.checked)}
                    data-testid="csi-enabled"
                  />
                  <Button
                    size="compact-sm"
                    variant="light"
                    onClick={() => setEditing(a)}
                    data-testid="csi-edit"
                  >
                    {t('settings.csi.edit')}
                  </Button>
                </>
              }
            />
          ))
        }
      </SettingsList>
      {editing && <CsiForm account={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

function CsiForm({ account, onClose }: { account: CsiAccount; onClose: () => void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const save = useSaveCsiAccount();
  const [values, setValues] = useState<CsiSettingsBody>(bodyOf(account));
  const [errors, setErrors] = useState<FieldErrors>({});
  const setText = (lang: 'ru' | 'en', field: 'survey' | 'thanks' | 'comment', value: string) =>
    setValues((v) => ({ ...v, texts: { ...v.texts, [lang]: { ...v.texts[lang], [field]: value } } }));
  const submit = () => {
    const parsed = csiSettingsBody.safeParse(values);
    if (!parsed.success) {
      setErrors(issueErrors(parsed.error.issues, message));
      return;
    }
    setErrors({});
    save.mutate(
      { object_id: account.object_id, ...parsed.data },
      {
        onSuccess: () => {
          showSaved(t('settings.common.saved'));
          onClose();
        },
        onError: (error) => showSaveError(error, setErrors),
      },
    );
  };
  const texts = (lang: 'ru' | 'en') => (
    <Stack gap="xs">
      <Text fw={600} fz="sm">
        {t(lang === 'ru' ? 'settings.csi.languageRu' : 'settings.csi.languageEn')}
      </Text>
      <Textarea
        label={t('settings.csi.survey')}
        autosize
        minRows={2}
        value={values.texts[lang].survey}
        onChange={(e) => setText(lang, 'survey', e.currentTarget.value)}
        error={errors[`texts.${lang}.survey`]}
        data-testid={`csi-survey-${lang}`}
      />
      <Textarea
        label={t('settings.csi.comment')}
        description={t('settings.csi.commentHint')}
        autosize
        value={values.texts[lang].comment}
        onChange={(e) => setText(lang, 'comment', e.currentTarget.value)}
        error={errors[`texts.${lang}.comment`]}
      />
      <Textarea
        label={t('settings.csi.thanks')}
        autosize
        value={values.texts[lang].thanks}
        onChange={(e) => setText(lang, 'thanks', e.currentTarget.value)}
        error={errors[`texts.${lang}.thanks`]}
      />
    </Stack>
  );
  return (
    <ModalForm
      title={t('settings.csi.editTitle', { name: account.name })}
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      cancelLabel={t('settings.csi.cancel')}
      submitLabel={t('settings.csi.save')}
      saving={save.isPending}
      submitTestId="csi-save"
      testId="csi-form"
      gap="md"
    >
      <Switch
        label={t('settings.csi.enabled')}
        checked={values.enabled}
        onChange={(e) => {
          const enabled = e.currentTarget.checked;
          setValues((v) => ({ ...v, enabled }));
        }}
        data-testid="csi-form-enabled"
      />
      <Select
        label={t('settings.csi.language')}
        data={(['auto', 'ru', 'en'] as const).map((value) => ({
          value,
          label: t(`settings.csi.languages.${value}`),
        }))}
        value={values.language}
        onChange={(language) =>
          language && setValues((v) => ({ ...v, language: language as CsiSettingsBody['language'] }))
        }
        allowDeselect={false}
      />
      {texts('ru')}
      {texts('en')}
      <Group grow align="flex-start">
        <NumberInput
          label={t('settings.csi.windowHours')}
          min={1}
          max={168}
          value={values.window_hours}
          onChange={(n) => setValues((v) => ({ ...v, window_hours: Number(n) || 0 }))}
          error={errors.window_hours}
        />
        <NumberInput
          label={t('settings.csi.periodDays')}
          description={t('settings.csi.periodHint')}
          min={0}
          max={365}
          value={values.period_days}
          onChange={(n) => setValues((v) => ({ ...v, period_days: Number(n) || 0 }))}
          error={errors.period_days}
        />
      </Group>
    </ModalForm>
  );
}
