import {
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
} from '@mantine/core';
import { type CsiAccount, type CsiSettingsBody, csiSettingsBody } from '@otklik/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCsiAccounts, useSaveCsiAccount } from '../../../api/csi';
import { ApiError } from '../../../api/errors';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { ProviderIcon, providerName } from '../../../features/inbox/components/ProviderIcon';
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
  const { spaces, spaceId, setSpace } = useManagedSpace('csi.manage');
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
      <Stack gap="lg">
        <PageHeader title={t('settings.csi.heading')} />
        <Text c="dimmed" data-testid="csi-unavailable">
          {t('settings.csi.unavailable')}
        </Text>
      </Stack>
    );
  return (
    <Stack gap="lg">
      <PageHeader title={t('settings.csi.heading')} />
      <Text c="dimmed" fz="sm">
        {t('settings.csi.hint')}
      </Text>
      <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
      <QueryState queries={[accounts]}>
        {() =>
          accounts.data!.accounts.length === 0 ? (
            <Paper withBorder radius="md" p="xl">
              <Text ta="center" c="dimmed">
                {t('settings.csi.noAccounts')}
              </Text>
            </Paper>
          ) : (
            <Paper withBorder radius="md" p={0}>
              {accounts.data!.accounts.map((a) => (
                <Group
                  key={a.object_id}
                  justify="space-between"
                  p="sm"
                  wrap="wrap"
                  gap="sm"
                  style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                  data-testid="csi-account"
                >
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
                  <Group gap="sm" wrap="nowrap">
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
                  </Group>
                </Group>
              ))}
            </Paper>
          )
        }
      </QueryState>
      {editing && <CsiForm account={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

type Errors = Record<string, string>;

function CsiForm({ account, onClose }: { account: CsiAccount; onClose: () => void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const save = useSaveCsiAccount();
  const [values, setValues] = useState<CsiSettingsBody>(bodyOf(account));
  const [errors, setErrors] = useState<Errors>({});
  const setText = (lang: 'ru' | 'en', field: 'survey' | 'thanks' | 'comment', value: string) =>
    setValues((v) => ({ ...v, texts: { ...v.texts, [lang]: { ...v.texts[lang], [field]: value } } }));
  const submit = () => {
    const parsed = csiSettingsBody.safeParse(values);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues)
        next[issue.path.map(String).join('.')] ??= message(issue.message);
      setErrors(next);
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
        onError: (error) => {
          if (error instanceof ApiError && Object.keys(error.fields).length > 0) setErrors(error.fields);
          else showError(error);
        },
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
    <Modal opened onClose={onClose} title={t('settings.csi.editTitle', { name: account.name })} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        data-testid="csi-form"
      >
        <Stack gap="md">
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
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('settings.csi.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="csi-save">
              {t('settings.csi.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
