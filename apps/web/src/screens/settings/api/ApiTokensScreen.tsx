import { Alert, Button, Code, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import {
  type ApiTokenKind,
  accessLabel,
  type PresentedApiToken,
  ROLE_PRESET_NAMES,
  type RolePresetName,
  translate,
} from '@otklik/shared';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../../../api/apiAccess';
import { ClipboardButton } from '../../../components/ClipboardButton';
import { ConfirmAction } from '../../../components/ConfirmAction';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { SettingsSection } from '../../../components/SettingsSection';
import { ListRow, SettingsList } from '../../../features/settings-kit/SettingsList';
import { useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';
import { useShell } from '../../../shell/ShellContext';

// settings/api (issue 14 item 9): personal tokens for everyone, space tokens for the spaces one
// administers. A new token's secret is shown once, in the dialog that created it.

const EXPIRY_DAYS = [30, 90, 365] as const;

/** The secret of a token just made, with a copy button; never shown again. */
export function SecretOnce({ secret, note, testId }: { secret: string; note: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Alert color="yellow" variant="light">
        {note}
      </Alert>
      <Group gap="xs" wrap="nowrap" align="center">
        <Code
          block
          style={{ flex: 1, minWidth: 0, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
          data-testid={testId}
        >
          {secret}
        </Code>
        <ClipboardButton
          value={secret}
          label={t('settings.apiAccess.tokens.copy')}
          copiedLabel={t('settings.apiAccess.tokens.copied')}
          testId={`${testId}-copy`}
        />
      </Group>
    </Stack>
  );
}

function CreateTokenDialog({ kind, onClose }: { kind: ApiTokenKind; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { config } = useShell();
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const adminSpaces = config.spaces.filter((s) => tokens.data?.admin_space_ids.includes(s.id));
  const spaces = kind === 'space' ? adminSpaces : config.spaces;
  const [name, setName] = useState('');
  const [spaceId, setSpaceId] = useState<string | null>(
    kind === 'space' ? String(spaces[0]?.id ?? '') : null,
  );
  const [role, setRole] = useState<string | null>(kind === 'space' ? 'read-only' : null);
  const [expires, setExpires] = useState<string>('never');
  const [secret, setSecret] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);

  const submit = async () => {
    if (!name.trim()) {
      setNameError(translate(locale, 'field.required'));
      return;
    }
    try {
      const days = expires === 'never' ? null : Number(expires);
      const result = await create.mutateAsync({
        kind,
        name: name.trim(),
        space_id: spaceId ? Number(spaceId) : null,
        role: (role as RolePresetName | null) ?? null,
        expires_at: days ? Math.floor(Date.now() / 1000) + days * 86_400 : null,
      });
      // The dialog itself says it was created, with the secret: no toast over it.
      setSecret(result.secret);
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={
        kind === 'space'
          ? t('settings.apiAccess.tokens.addSpace')
          : t('settings.apiAccess.tokens.addPersonal')
      }
      size="lg"
    >
      {secret ? (
        <Stack>
          <SecretOnce
            secret={secret}
            note={t('settings.apiAccess.tokens.secretOnce')}
            testId="token-secret"
          />
          <Text fz="sm" c="dimmed">
            {t('settings.apiAccess.tokens.usage')}
          </Text>
          <Group justify="flex-end">
            <Button onClick={onClose} data-testid="token-done">
              {t('settings.apiAccess.tokens.done')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <TextInput
            label={t('settings.apiAccess.tokens.name')}
            placeholder={t('settings.apiAccess.tokens.namePlaceholder')}
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setNameError(null);
            }}
            error={nameError}
            required
            data-testid="token-name"
            data-autofocus
          />
          <Select
            label={t('settings.common.space')}
            data={[
              ...(kind === 'personal'
                ? [{ value: '', label: t('settings.apiAccess.tokens.allSpaces') }]
                : []),
              ...spaces.map((s) => ({ value: String(s.id), label: s.name })),
            ]}
            value={spaceId ?? ''}
            onChange={(v) => setSpaceId(v || null)}
            allowDeselect={false}
            data-testid="token-space"
          />
          <Select
            label={t('settings.apiAccess.tokens.role')}
            data={[
              ...(kind === 'personal' ? [{ value: '', label: t('settings.apiAccess.tokens.roleOwn') }] : []),
              ...ROLE_PRESET_NAMES.map((r) => ({ value: r, label: accessLabel(`role.${r}`, locale) })),
            ]}
            value={role ?? ''}
            onChange={(v) => setRole(v || null)}
            allowDeselect={false}
            data-testid="token-role"
          />
          <Select
            label={t('settings.apiAccess.tokens.expires')}
            data={[
              { value: 'never', label: t('settings.apiAccess.tokens.expiresNever') },
              ...EXPIRY_DAYS.map((d) => ({
                value: String(d),
                label: t('settings.apiAccess.tokens.expiresDays', { count: d }),
              })),
            ]}
            value={expires}
            onChange={(v) => setExpires(v ?? 'never')}
            allowDeselect={false}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('settings.apiAccess.tokens.cancel')}
            </Button>
            <Button onClick={() => void submit()} loading={create.isPending} data-testid="token-create">
              {t('settings.apiAccess.tokens.create')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function TokenRow({ token }: { token: PresentedApiToken }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { config } = useShell();
  const revoke = useRevokeApiToken();
  const space = config.spaces.find((s) => s.id === token.space_id);
  const scope = [
    space?.name ?? t('settings.apiAccess.tokens.allSpaces'),
    token.role ? accessLabel(`role.${token.role}`, locale) : t('settings.apiAccess.tokens.roleOwn'),
  ].join(' · ');
  return (
    <ListRow
      testId="token-row"
      gap="sm"
      wrap="wrap"
      main={
        <Stack gap={2} miw={0} style={{ flex: 1 }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600} fz="sm">
              {token.name}
            </Text>
            <Code>{token.hint}</Code>
          </Group>
          <Text fz="xs" c="dimmed">
            {t('settings.apiAccess.tokens.columns.scope')}: {scope}
          </Text>
          <Text fz="xs" c="dimmed" data-testid="token-last-used">
            {t('settings.apiAccess.tokens.columns.lastUsed')}:{' '}
            {token.last_used_at
              ? formatDateTime(token.last_used_at, locale)
              : t('settings.apiAccess.tokens.never')}
            {' · '}
            {t('settings.apiAccess.tokens.columns.expires')}:{' '}
            {token.expires_at
              ? formatDateTime(token.expires_at, locale)
              : t('settings.apiAccess.tokens.noExpiry')}
          </Text>
        </Stack>
      }
      actions={
        <ConfirmAction
          title={t('settings.apiAccess.tokens.revokeTitle')}
          message={t('settings.apiAccess.tokens.revokeText', { name: token.name })}
          confirmLabel={t('settings.apiAccess.tokens.revoke')}
          onConfirm={async () => {
            await revoke.mutateAsync(token.id);
            showSaved(t('settings.apiAccess.tokens.revoked'));
          }}
        >
          {(open) => (
            <Button variant="subtle" color="red" size="compact-sm" onClick={open} data-testid="token-revoke">
              {t('settings.apiAccess.tokens.revoke')}
            </Button>
          )}
        </ConfirmAction>
      }
    />
  );
}

/** The tokens of one kind with their Add button, from the one tokens query the screen waits for. */
function TokenSection({
  kind,
  tokens,
  onAdd,
}: {
  kind: ApiTokenKind;
  tokens: PresentedApiToken[];
  onAdd: () => void;
}) {
  const { t } = useTranslation();
  const personal = kind === 'personal';
  return (
    <SettingsSection title={t(`settings.apiAccess.tokens.${kind}`)} testId={`tokens-${kind}`}>
      <Group justify="space-between" gap="sm">
        <Text fz="sm" c="dimmed">
          {t(`settings.apiAccess.tokens.${kind}Hint`)}
        </Text>
        <Button
          leftSection={personal ? <IconPlus size={16} /> : <IconKey size={16} />}
          variant={personal ? undefined : 'light'}
          onClick={onAdd}
          data-testid={`token-add-${kind}`}
        >
          {t('settings.apiAccess.tokens.add')}
        </Button>
      </Group>
      <SettingsList
        rows={tokens.filter((x) => x.kind === kind)}
        empty={t('settings.apiAccess.tokens.empty')}
        emptyTestId={`tokens-${kind}-list-empty`}
        emptyLine
        testId={`tokens-${kind}-list`}
      >
        {(rows) => rows.map((token) => <TokenRow key={token.id} token={token} />)}
      </SettingsList>
    </SettingsSection>
  );
}

/** settings/api */
export default function ApiTokensScreen() {
  const { t } = useTranslation();
  const tokens = useApiTokens();
  const [creating, setCreating] = useState<ApiTokenKind | null>(null);
  return (
    <Stack gap="lg" maw={960}>
      <PageHeader title={t('titles.settings-api')} description={t('settings.apiAccess.tokens.hint')} />
      <QueryState queries={[tokens]}>
        {() => {
          const items = tokens.data?.items ?? [];
          return (
            <>
              <TokenSection kind="personal" tokens={items} onAdd={() => setCreating('personal')} />
              {(tokens.data?.admin_space_ids ?? []).length > 0 && (
                <TokenSection kind="space" tokens={items} onAdd={() => setCreating('space')} />
              )}
            </>
          );
        }}
      </QueryState>
      {creating && <CreateTokenDialog kind={creating} onClose={() => setCreating(null)} />}
    </Stack>
  );
}
