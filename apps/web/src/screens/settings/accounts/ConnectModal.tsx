import {
  Alert,
  Button,
  Divider,
  Group,
  Loader,
  Modal,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { BREAKPOINTS, can, connectFields, type ProviderEntry, relayedBy } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { type ConnectableProvider, useConnectAccount } from '../../../api/accounts';
import { ApiError, NetworkError } from '../../../api/client';
import type { ConnectedAccount } from '../../../api/inboxTypes';
import { showError } from '../../../components/notify';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { ProviderIcon } from '../../../features/inbox/components/ProviderIcon';
import { type InboxT, useInboxT } from '../../../features/inbox/i18n';
import { useLocale, useMessage } from '../../../i18n/useLocale';
import { useShell } from '../../../shell/ShellContext';
import { CredentialsFields } from './CredentialsFields';
import {
  credentialsFrom,
  emptyValues,
  type FieldProblem,
  type FieldValues,
  OAUTH_CALLBACK_FIELDS,
  oauthCallbackParams,
  serverFieldErrors,
  validateConnectFields,
} from './connectFields';
import { usePopupConnect } from './usePopupConnect';

/**
 * Connecting one network (settings/accounts/add): the sandbox and ingestion-token sites with a name;
 * networks with typed credentials with their fields (checked by the network before anything is saved);
 * networks with an OAuth popup with a "Connect via …" button. VK offers both: the popup needs the
 * community, the manual way also its access token.
 */
export function ConnectModal({
  entry,
  how,
  onClose,
}: {
  entry: ProviderEntry;
  how: ConnectableProvider;
  onClose: () => void;
}) {
  const t = useInboxT();
  const locale = useLocale();
  const message = useMessage();
  const navigate = useNavigate();
  const mobile = useMediaQuery(`(max-width: ${BREAKPOINTS.mobile - 1}px)`);
  const { config, actor, objects, user } = useShell();
  const connect = useConnectAccount();
  const spaces = config.spaces.filter((space) => can(actor, 'accounts.manage', space.id));
  const [spaceId, setSpaceId] = useState<number | null>(spaces[0]?.id ?? null);
  const [name, setName] = useState(entry.id === 'sandbox' ? '' : entry.longName[locale]);
  const [companyId, setCompanyId] = useState<string | null>(null);
  const companies = (objects?.companies ?? []).filter((c) => c.space_id === spaceId);

  const fields = how.fields ? connectFields(entry.id) : [];
  const popupFields = how.oauth ? (OAUTH_CALLBACK_FIELDS[entry.id] ?? []) : [];
  // With a popup, the fields it carries come first, the button right under them; the rest is the manual way.
  const leadFields = fields.filter((field) => popupFields.includes(field.name));
  const manualFields = fields.filter((field) => !popupFields.includes(field.name));
  const [values, setValues] = useState<FieldValues>(() => emptyValues(connectFields(entry.id)));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const namedByUser = !how.fields && !how.oauth;

  const showProblems = (problems: Record<string, FieldProblem>) =>
    setErrors(
      Object.fromEntries(
        Object.entries(problems).map(([field, problem]) => [
          field,
          problem.kind === 'numericId' ? t('accounts.groupIdNumeric') : message(problem.key),
        ]),
      ),
    );

  const fail = (error: unknown) => {
    if (error instanceof ApiError) {
      const onFields = serverFieldErrors(fields, error.fields);
      if (Object.keys(onFields).length > 0) setErrors(onFields);
      else if (error.status !== 403) setFormError(error.message);
    } else if (!(error instanceof NetworkError)) showError(error);
  };

  const succeed = (account: ConnectedAccount | undefined) =>
    navigate(pathFor('settings-accounts-add-success'), { state: account ? { account } : null });

  const popup = usePopupConnect({
    provider: entry.id,
    userId: user.id,
    onResult: (result) => {
      if (result.status === 'success') succeed(result.account);
      else setFormError(result.error ?? message('error.generic'));
    },
    onStartError: fail,
  });

  const change = (field: string, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors(({ [field]: _, ...rest }) => rest);
    // The network's refusal was about what was typed before.
    setFormError(null);
  };

  const submit = () => {
    setFormError(null);
    const problems = validateConnectFields(fields, values);
    if (Object.keys(problems).length > 0) return showProblems(problems);
    connect.mutate(
      {
        provider: entry.id,
        name: namedByUser ? name.trim() || undefined : undefined,
        space_id: spaceId ?? undefined,
        company_id: companyId ? Number(companyId) : null,
        credentials: fields.length > 0 ? credentialsFrom(fields, values) : undefined,
      },
      { onSuccess: succeed, onError: fail },
    );
  };

  const startPopup = (login?: string) => {
    setFormError(null);
    const problems = validateConnectFields(fields, values, { only: popupFields, forOAuth: true });
    if (Object.keys(problems).length > 0) return showProblems(problems);
    void popup.start({
      spaceId: spaceId ?? undefined,
      callbackParams: oauthCallbackParams(entry.id, values),
      login,
    });
  };
  // Instagram: through Facebook (a Page linked to the account) or Instagram Login (no Page needed).
  const logins = how.logins ?? [];

  const busy = connect.isPending || popup.starting || popup.waiting;

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('accounts.connectTitle', { name: entry.name })}
      centered
      fullScreen={mobile}
      size="lg"
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
        data-testid="connect-form"
        data-provider={entry.id}
      >
        <Stack gap="sm">
          <Group gap="sm" wrap="nowrap">
            <ProviderIcon provider={entry.id} size={36} withTooltip={false} />
            <Title order={3} fz="md">
              {entry.longName[locale]}
            </Title>
          </Group>
          <Text fz="sm" c="dimmed">
            {introText(entry, how, t, locale)}
          </Text>
          <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpaceId} label={t('accounts.space')} />
          {namedByUser && (
            <TextInput
              label={t('accounts.name')}
              placeholder={entry.longName[locale]}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={200}
              data-autofocus
              data-testid="connect-name"
            />
          )}
          {companies.length > 0 && !(how.oauth && fields.length === 0) && (
            <Select
              label={t('accounts.company')}
              data={companies.map((c) => ({ value: String(c.id), label: c.name }))}
              value={companyId}
              onChange={setCompanyId}
              clearable
              placeholder={t('accounts.noCompany')}
            />
          )}
          {formError && (
            <Alert
              color="red"
              variant="light"
              title={t('accounts.connectFailed')}
              data-testid="connect-error"
            >
              {formError}
            </Alert>
          )}

          {how.oauth && (
            <>
              <CredentialsFields
                fields={leadFields}
                values={values}
                errors={errors}
                onChange={change}
                disabled={busy}
                autoFocus
              />
              {logins.length > 1 ? (
                <LoginChoice
                  logins={logins}
                  color={entry.color}
                  busy={busy}
                  starting={popup.starting}
                  onStart={startPopup}
                  t={t}
                />
              ) : (
                <Button
                  onClick={() => startPopup(logins[0])}
                  loading={popup.starting}
                  disabled={busy && !popup.starting}
                  color={entry.color}
                  leftSection={<IconExternalLink size={16} />}
                  data-testid="connect-oauth"
                >
                  {t('accounts.connectVia', { name: entry.name })}
                </Button>
              )}
              {popup.waiting && (
                <Group gap="xs" data-testid="connect-waiting">
                  <Loader size="xs" />
                  <Text fz="sm" c="dimmed">
                    {t('accounts.popupWaiting', { name: entry.name })}
                  </Text>
                </Group>
              )}
              {manualFields.length > 0 && (
                <Divider label={t('accounts.orManual')} labelPosition="center" my={4} />
              )}
            </>
          )}

          <CredentialsFields
            fields={how.oauth ? manualFields : fields}
            values={values}
            errors={errors}
            onChange={change}
            disabled={busy}
            autoFocus={!how.oauth}
          />

          {(!how.oauth || manualFields.length > 0) && (
            <Group justify="flex-end" mt="xs">
              <Button variant="default" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button
                type="submit"
                variant={how.oauth ? 'light' : 'filled'}
                loading={connect.isPending}
                disabled={busy && !connect.isPending}
                data-testid="connect-submit"
              >
                {t('accounts.connect')}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Modal>
  );
}

function introText(entry: ProviderEntry, how: ConnectableProvider, t: InboxT, locale: 'ru' | 'en'): string {
  if (entry.connect === 'none') return t('accounts.connectSandbox');
  if (how.oauth && (OAUTH_CALLBACK_FIELDS[entry.id]?.length ?? 0) > 0) return t('accounts.oauthHintVk');
  if (how.oauth && (how.logins?.length ?? 0) > 1) return t('accounts.oauthHintLogins', { name: entry.name });
  if (how.oauth) return t('accounts.oauthHint', { name: entry.name });
  if (how.fields) {
    // The fields carry their own hints; the catalogue's form hint would repeat them.
    const fieldsHinted = connectFields(entry.id).some((field) => field.hint);
    const hint = fieldsHinted ? undefined : entry.formHint?.[locale];
    return hint ?? t('accounts.connectCheck', { name: relayedBy(entry.id) ?? entry.name });
  }
  return entry.formHint?.[locale] ?? t('accounts.connectIngest');
}

/** Two ways to sign in (Instagram), each with what it needs, one button each. */
function LoginChoice(props: {
  logins: string[];
  color: string | undefined;
  busy: boolean;
  starting: boolean;
  onStart: (login: string) => void;
  t: InboxT;
}) {
  const { t } = props;
  const label = (login: string) =>
    login === 'instagram' ? t('accounts.loginInstagram') : t('accounts.loginFacebook');
  const hint = (login: string) =>
    login === 'instagram' ? t('accounts.loginInstagramHint') : t('accounts.loginFacebookHint');
  return (
    <Stack gap="sm" data-testid="connect-logins">
      {props.logins.map((login) => (
        <Stack key={login} gap={4}>
          <Button
            onClick={() => props.onStart(login)}
            loading={props.starting}
            disabled={props.busy && !props.starting}
            color={props.color}
            variant={login === props.logins[0] ? 'filled' : 'light'}
            leftSection={<IconExternalLink size={16} />}
            data-testid={`connect-oauth-${login}`}
          >
            {label(login)}
          </Button>
          <Text fz="xs" c="dimmed">
            {hint(login)}
          </Text>
        </Stack>
      ))}
    </Stack>
  );
}
