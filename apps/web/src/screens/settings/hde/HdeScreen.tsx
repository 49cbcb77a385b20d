import { Alert, Anchor, Button, Group, Paper, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type HdeForm, hdeFormSchema, type PresentedHde, translate } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useMatch, useNavigate, useParams } from 'react-router';
import {
  useCreateHde,
  useHdeIntegration,
  useHdeIntegrations,
  useTestHde,
  useUpdateHde,
} from '../../../api/hde';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';

// settings/hde/{id} (issue 21): one HelpDeskEddy connection of a space; `new` adds one. The API key is
// write-only: the server never returns it, the form only says whether one is stored.

function CheckState({ integration }: { integration: PresentedHde }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const check = integration.last_check;
  const text =
    check === 'ok'
      ? t('settings.hde.checkOk')
      : check === 'auth'
        ? t('settings.hde.checkAuth')
        : check === 'unreachable'
          ? t('settings.hde.checkUnreachable')
          : t('settings.hde.notChecked');
  return (
    <Alert color={check === 'ok' ? 'green' : check ? 'red' : 'gray'} variant="light" data-testid="hde-check">
      {text}
      {integration.last_checked_at ? ` · ${formatDateTime(integration.last_checked_at, locale)}` : ''}
    </Alert>
  );
}

function HdeFormView({ integration, spaceId }: { integration: PresentedHde | null; spaceId: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const create = useCreateHde();
  const update = useUpdateHde();
  const test = useTestHde();
  const [draft, setDraft] = useState<HdeForm>({
    domain: integration?.domain ?? '',
    email: integration?.email ?? '',
    api_key: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (field: keyof HdeForm) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setDraft((d) => ({ ...d, [field]: value }));
  };

  const save = async () => {
    const parsed = hdeFormSchema.safeParse(draft);
    const issues = parsed.success ? [] : parsed.error.issues;
    if (!integration && !draft.api_key.trim())
      issues.push({ path: ['api_key'], message: 'hde.apiKey.required' } as never);
    if (issues.length > 0 || !parsed.success) {
      setErrors(
        Object.fromEntries(
          issues.map((i) => [
            String(i.path[0]),
            translate(locale, i.message as Parameters<typeof translate>[1]),
          ]),
        ),
      );
      return;
    }
    setErrors({});
    try {
      if (integration) {
        await update.mutateAsync({ id: integration.id, ...parsed.data });
        showSaved(t('settings.common.saved'));
        setDraft((d) => ({ ...d, api_key: '' }));
      } else {
        const result = await create.mutateAsync({ ...parsed.data, space_id: spaceId });
        showSaved(t('settings.hde.created'));
        navigate(pathFor('settings-hde', { id: result.integration.id }), { replace: true });
      }
    } catch (error) {
      const fields = (error as { fields?: Record<string, string> }).fields;
      if (fields) setErrors(fields);
      showError(error);
    }
  };

  return (
    <Paper withBorder p="md">
      <Stack>
        <TextInput
          label={t('settings.hde.domain')}
          description={t('settings.hde.domainHint')}
          placeholder="company.helpdeskeddy.com"
          value={draft.domain}
          onChange={set('domain')}
          error={errors.domain}
          required
          data-testid="hde-domain"
        />
        <TextInput
          label={t('settings.hde.email')}
          type="email"
          value={draft.email}
          onChange={set('email')}
          error={errors.email}
          required
          data-testid="hde-email"
        />
        <PasswordInput
          label={t('settings.hde.apiKey')}
          description={integration?.has_api_key ? t('settings.hde.apiKeyHint') : t('settings.hde.apiKeyNew')}
          value={draft.api_key}
          onChange={set('api_key')}
          error={errors.api_key}
          required={!integration}
          autoComplete="off"
          data-testid="hde-key"
        />
        {integration && <CheckState integration={integration} />}
        <Group justify="flex-end">
          {integration && (
            <Button
              variant="default"
              loading={test.isPending}
              onClick={() => test.mutate(integration.id, { onError: showError })}
              data-testid="hde-test"
            >
              {t('settings.hde.test')}
            </Button>
          )}
          <Button onClick={save} loading={create.isPending || update.isPending} data-testid="hde-save">
            {t('settings.hde.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function Existing({ spaceId, currentId }: { spaceId: number; currentId: number | null }) {
  const { t } = useTranslation();
  const list = useHdeIntegrations(spaceId);
  const others = (list.data?.items ?? []).filter((i) => i.id !== currentId);
  if (others.length === 0) return null;
  return (
    <Stack gap={4}>
      <Text fw={600}>{t('settings.hde.existing')}</Text>
      {others.map((i) => (
        <Anchor key={i.id} component={Link} to={pathFor('settings-hde', { id: i.id })}>
          {i.domain} · {i.email}
        </Anchor>
      ))}
    </Stack>
  );
}

export default function HdeScreen() {
  const { t } = useTranslation();
  const params = useParams();
  const isNew = useMatch(pathFor('settings-hde-new')) !== null;
  const id = isNew ? 0 : Number(params.id);
  const { spaces, spaceId, setSpace } = useManagedSpace('settings.manage');
  const one = useHdeIntegration(id);
  const header = <PageHeader title={t('titles.settings-hde')} description={t('settings.hde.intro')} />;

  if (isNew) {
    return (
      <Stack gap="lg" maw={720}>
        {header}
        <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
        {spaceId !== null && (
          <>
            <HdeFormView key={spaceId} integration={null} spaceId={spaceId} />
            <Existing spaceId={spaceId} currentId={null} />
          </>
        )}
      </Stack>
    );
  }
  if (!Number.isInteger(id) || id <= 0) {
    return (
      <Stack gap="lg" maw={720}>
        {header}
        <Alert color="gray">{t('settings.hde.notFound')}</Alert>
      </Stack>
    );
  }
  return (
    <Stack gap="lg" maw={720}>
      {header}
      <QueryState queries={[one]}>
        {() =>
          one.data && (
            <>
              <HdeFormView
                key={one.data.integration.id}
                integration={one.data.integration}
                spaceId={one.data.integration.space_id}
              />
              <Existing spaceId={one.data.integration.space_id} currentId={one.data.integration.id} />
            </>
          )
        }
      </QueryState>
    </Stack>
  );
}
