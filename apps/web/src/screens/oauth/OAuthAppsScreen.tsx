import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Button,
  Code,
  Container,
  Group,
  Modal,
  Paper,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { type OAuthAppView, type OAuthAppWithSecret, oauthAppFormSchema } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconArrowLeft, IconKey, IconPencil, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useConfig } from '../../api/config';
import {
  useCreateOAuthApp,
  useDeleteOAuthApp,
  useOAuthApps,
  useOAuthGrants,
  useRegenerateSecret,
  useRevokeGrant,
  useUpdateOAuthApp,
} from '../../api/oauthapps';
import { ClipboardButton } from '../../components/ClipboardButton';
import { ConfirmAction } from '../../components/ConfirmAction';
import { LocaleSwitch } from '../../components/LocaleSwitch';
import { Logo } from '../../components/Logo';
import { showError, showSaved } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { SpaceSelect } from '../../components/SpaceSelect';
import { DeleteRowAction } from '../../features/settings-kit/SettingsList';
import { useZodForm } from '../../forms/useZodForm';
import { useLocale, useMessage } from '../../i18n/useLocale';
import { formatDate, formatDateTime } from '../../lib/format';

function CopyValue({ value, testId }: { value: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap" miw={0}>
      <Code fz="sm" style={{ wordBreak: 'break-all', minWidth: 0 }} data-testid={testId}>
        {value}
      </Code>
      <ClipboardButton
        value={value}
        label={t('settings.oauth.apps.copy')}
        copiedLabel={t('settings.oauth.apps.copied')}
        icon
      />
    </Group>
  );
}

/** Register an app, or rename one / change its redirect URIs. */
function AppForm({
  spaceId,
  app,
  onDone,
}: {
  spaceId: number;
  app: OAuthAppView | null;
  onDone: (created?: OAuthAppWithSecret) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateOAuthApp();
  const update = useUpdateOAuthApp();
  const { form, handleSubmit, setServerErrors } = useZodForm(oauthAppFormSchema, {
    name: app?.name ?? '',
    redirect_uris: app?.redirect_uris ?? ([] as string[]),
  });
  const message = useMessage();
  // The list's errors come per address (`redirect_uris.0`): one message under the field.
  const uriError = Object.entries(form.errors).find(([key]) => key.startsWith('redirect_uris'))?.[1];
  return (
    <form
      onSubmit={handleSubmit(async (values) => {
        try {
          if (app) {
            await update.mutateAsync({ id: app.id, ...values });
            showSaved(t('settings.common.saved'));
            onDone();
          } else onDone(await create.mutateAsync({ ...values, space_id: spaceId }));
        } catch (error) {
          if (!setServerErrors(error)) showError(error);
        }
      })}
    >
      <Stack gap="md">
        <TextInput
          label={t('settings.oauth.apps.name')}
          placeholder={t('settings.oauth.apps.namePlaceholder')}
          data-autofocus
          {...form.getInputProps('name')}
          data-testid="oauth-app-name"
        />
        <TagsInput
          label={t('settings.oauth.apps.redirectUris')}
          description={t('settings.oauth.apps.redirectHint')}
          acceptValueOnBlur
          splitChars={[' ', ',']}
          {...form.getInputProps('redirect_uris')}
          error={typeof uriError === 'string' ? message(uriError) : uriError}
          data-testid="oauth-app-redirects"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onDone()}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending} data-testid="oauth-app-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The secret, once: after creation or regeneration. */
function SecretModal({ shown, onClose }: { shown: OAuthAppWithSecret | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={shown !== null}
      onClose={onClose}
      title={t('settings.oauth.apps.secretTitle')}
      closeOnClickOutside={false}
      size="lg"
    >
      {shown && (
        <Stack gap="md" data-testid="oauth-secret-dialog">
          <Text fz="sm">{t('settings.oauth.apps.secretText')}</Text>
          <Stack gap={4}>
            <Text fz="sm" fw={500}>
              {t('settings.oauth.apps.clientId')}
            </Text>
            <CopyValue value={shown.client_id} testId="oauth-secret-client-id" />
          </Stack>
          <Stack gap={4}>
            <Text fz="sm" fw={500}>
              {t('settings.oauth.apps.secret')}
            </Text>
            <CopyValue value={shown.client_secret} testId="oauth-secret-value" />
          </Stack>
          <Group justify="flex-end">
            <Button onClick={onClose} data-testid="oauth-secret-done">
              {t('settings.oauth.apps.secretDone')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function AppRow({
  app,
  onEdit,
  onSecret,
}: {
  app: OAuthAppView;
  onEdit: () => void;
  onSecret: (shown: OAuthAppWithSecret) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const regenerate = useRegenerateSecret();
  const remove = useDeleteOAuthApp();
  return (
    <Box p="md" data-testid="oauth-app" style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={6} miw={0} style={{ flex: 1 }}>
          <Group gap="xs">
            <Text fw={600} data-testid="oauth-app-title">
              {app.name}
            </Text>
            {app.active_users > 0 && (
              <Badge variant="light" color="indigo" size="sm">
                {t('settings.oauth.apps.users', { count: app.active_users })}
              </Badge>
            )}
          </Group>
          <Stack gap={2} miw={0}>
            <Text fz="xs" c="dimmed">
              {t('settings.oauth.apps.clientId')}
            </Text>
            <CopyValue value={app.client_id} testId="oauth-app-client-id" />
          </Stack>
          <Stack gap={2}>
            {app.redirect_uris.map((uri) => (
              <Text key={uri} fz="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {uri}
              </Text>
            ))}
          </Stack>
          <Text fz="xs" c="dimmed">
            {t('settings.oauth.apps.created', { date: formatDate(app.created_at, locale) })}
            {' · '}
            {app.last_used_at
              ? t('settings.oauth.apps.lastUsed', { date: formatDateTime(app.last_used_at, locale) })
              : t('settings.oauth.apps.neverUsed')}
          </Text>
        </Stack>
        <Group gap={4} wrap="nowrap">
          <Tooltip label={t('settings.oauth.apps.edit')}>
            <ActionIcon
              variant="subtle"
              onClick={onEdit}
              aria-label={t('settings.oauth.apps.edit')}
              data-testid="oauth-app-edit"
            >
              <IconPencil size={18} />
            </ActionIcon>
          </Tooltip>
          <ConfirmAction
            title={t('settings.oauth.apps.regenerateTitle', { name: app.name })}
            message={t('settings.oauth.apps.regenerateText')}
            confirmLabel={t('settings.oauth.apps.regenerateConfirm')}
            color="indigo"
            onConfirm={async () => onSecret(await regenerate.mutateAsync(app.id))}
          >
            {(open) => (
              <Tooltip label={t('settings.oauth.apps.regenerate')}>
                <ActionIcon
                  variant="subtle"
                  onClick={open}
                  aria-label={t('settings.oauth.apps.regenerate')}
                  data-testid="oauth-app-regenerate"
                >
                  <IconKey size={18} />
                </ActionIcon>
              </Tooltip>
            )}
          </ConfirmAction>
          <DeleteRowAction
            title={t('settings.oauth.apps.deleteTitle', { name: app.name })}
            message={t('settings.oauth.apps.deleteText')}
            label={t('common.delete')}
            onConfirm={() => remove.mutateAsync(app.id)}
            testId="oauth-app-delete"
            iconSize={18}
          />
        </Group>
      </Group>
    </Box>
  );
}

/** The administrator's registered apps of one space (a space picker when they manage several). */
function AppsSection() {
  const { t } = useTranslation();
  const apps = useOAuthApps();
  const config = useConfig();
  const [chosen, setChosen] = useState<number | null>(null);
  const [editing, setEditing] = useState<OAuthAppView | 'new' | null>(null);
  const [secret, setSecret] = useState<OAuthAppWithSecret | null>(null);
  return (
    <Stack gap="sm">
      <QueryState queries={[apps, config]}>
        {() => {
          const manageable = (config.data?.spaces ?? []).filter((s) => apps.data?.can_manage.includes(s.id));
          if (manageable.length === 0)
            return (
              <>
                <Title order={2} fz="lg">
                  {t('settings.oauth.apps.heading')}
                </Title>
                <Text c="dimmed" fz="sm" data-testid="oauth-apps-nospace">
                  {t('settings.oauth.apps.noSpace')}
                </Text>
              </>
            );
          const spaceId = manageable.find((s) => s.id === chosen)?.id ?? manageable[0]!.id;
          const inSpace = (apps.data?.items ?? []).filter((a) => a.space_id === spaceId);
          return (
            <>
              <Group justify="space-between" gap="sm">
                <Title order={2} fz="lg">
                  {t('settings.oauth.apps.heading')}
                </Title>
                <Button
                  leftSection={<IconPlus size={16} />}
                  onClick={() => setEditing('new')}
                  data-testid="oauth-app-add"
                >
                  {t('settings.oauth.apps.add')}
                </Button>
              </Group>
              <SpaceSelect spaces={manageable} value={spaceId} onChange={setChosen} />
              {inSpace.length === 0 ? (
                <Paper withBorder radius="md" p="xl" data-testid="oauth-apps-empty">
                  <Text ta="center" c="dimmed">
                    {t('settings.oauth.apps.empty')}
                  </Text>
                </Paper>
              ) : (
                <Paper withBorder radius="md" p={0} style={{ overflow: 'hidden' }}>
                  {inSpace.map((app) => (
                    <AppRow key={app.id} app={app} onEdit={() => setEditing(app)} onSecret={setSecret} />
                  ))}
                </Paper>
              )}
              <Modal
                opened={editing !== null}
                onClose={() => setEditing(null)}
                title={editing === 'new' ? t('settings.oauth.apps.add') : t('settings.oauth.apps.edit')}
                size="lg"
              >
                {editing !== null && (
                  <AppForm
                    spaceId={spaceId}
                    app={editing === 'new' ? null : editing}
                    onDone={(created) => {
                      setEditing(null);
                      if (created) setSecret(created);
                    }}
                  />
                )}
              </Modal>
            </>
          );
        }}
      </QueryState>
      <SecretModal shown={secret} onClose={() => setSecret(null)} />
    </Stack>
  );
}

/** The apps the signed-in user allowed, each with "revoke". */
function GrantsSection() {
  const { t } = useTranslation();
  const locale = useLocale();
  const grants = useOAuthGrants();
  const revoke = useRevokeGrant();
  return (
    <Stack gap="sm">
      <Title order={2} fz="lg">
        {t('settings.oauth.grants.heading')}
      </Title>
      <QueryState queries={[grants]}>
        {() =>
          (grants.data ?? []).length === 0 ? (
            <Paper withBorder radius="md" p="xl" data-testid="oauth-grants-empty">
              <Text ta="center" c="dimmed">
                {t('settings.oauth.grants.empty')}
              </Text>
            </Paper>
          ) : (
            <Paper withBorder radius="md" p={0} style={{ overflow: 'hidden' }}>
              {(grants.data ?? []).map((grant) => (
                <Group
                  key={grant.app_id}
                  justify="space-between"
                  p="md"
                  gap="sm"
                  data-testid="oauth-grant"
                  style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                >
                  <Stack gap={2} miw={0}>
                    <Text fw={600}>{grant.name}</Text>
                    <Text fz="xs" c="dimmed">
                      {grant.space_name} ·{' '}
                      {t('settings.oauth.grants.granted', {
                        date: formatDate(grant.granted_at, locale),
                      })}
                    </Text>
                  </Stack>
                  <ConfirmAction
                    title={t('settings.oauth.grants.revokeTitle', { name: grant.name })}
                    message={t('settings.oauth.grants.revokeText')}
                    confirmLabel={t('settings.oauth.grants.revoke')}
                    onConfirm={async () => {
                      await revoke.mutateAsync(grant.app_id);
                      showSaved(t('settings.oauth.grants.revoked'));
                    }}
                  >
                    {(open) => (
                      <Button
                        variant="light"
                        color="red"
                        size="xs"
                        onClick={open}
                        data-testid="oauth-grant-revoke"
                      >
                        {t('settings.oauth.grants.revoke')}
                      </Button>
                    )}
                  </ConfirmAction>
                </Group>
              ))}
            </Paper>
          )
        }
      </QueryState>
    </Stack>
  );
}

/** /oauth without an authorization request: registered apps (administrators) and the apps you allowed. */
export function OAuthAppsScreen() {
  const { t } = useTranslation();
  return (
    <Box mih="100dvh" bg="gray.0">
      <Container size="md" py={{ base: 'md', sm: 'xl' }} px={{ base: 'sm', sm: 'md' }}>
        <Stack gap="xl">
          <Group justify="space-between" gap="sm">
            <Group gap="sm">
              <Logo />
              <Anchor component={Link} to={pathFor('stats')} fz="sm" data-testid="oauth-back">
                <Group gap={4}>
                  <IconArrowLeft size={14} />
                  {t('settings.oauth.backToApp')}
                </Group>
              </Anchor>
            </Group>
            <LocaleSwitch />
          </Group>
          <PageHeader title={t('settings.oauth.title')} description={t('settings.oauth.hint')} />
          <AppsSection />
          <GrantsSection />
        </Stack>
      </Container>
    </Box>
  );
}
