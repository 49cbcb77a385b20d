import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import type { AuthorizeRequest } from '@otklik/shared';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { decideAuthorization, useAuthorizeCheck } from '../../api/oauthapps';
import { AuthLayout, AuthWaiting } from '../../components/AuthLayout';
import { showError } from '../../components/notify';
import { ResultCard } from '../../components/ResultCard';

function requestOf(params: URLSearchParams): AuthorizeRequest {
  const optional = (key: string) => params.get(key) ?? undefined;
  return {
    response_type: params.get('response_type') ?? '',
    client_id: params.get('client_id') ?? '',
    redirect_uri: params.get('redirect_uri') ?? '',
    code_challenge: optional('code_challenge'),
    code_challenge_method: optional('code_challenge_method'),
    state: optional('state'),
    scope: optional('scope'),
  };
}

const hostOf = (uri: string) => {
  try {
    return new URL(uri).host;
  } catch {
    return uri;
  }
};

/** Leaves Otklik for the app's redirect URI (the server built it from a registered address). */
const go = (to: string) => window.location.assign(to);

/**
 * The consent screen (RFC 6749 §4.1.1): the app's name, the space and what it may do; Allow sends the
 * browser back with a code and the state, Deny with error=access_denied. An unknown app or an address
 * it did not register is shown here and never followed.
 */
export function ConsentScreen({ params }: { params: URLSearchParams }) {
  const { t } = useTranslation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: one request per address
  const request = useMemo(() => requestOf(params), [params.toString()]);
  const check = useAuthorizeCheck(request);
  const [busy, setBusy] = useState<'allow' | 'deny' | null>(null);
  const [leaving, setLeaving] = useState(false);
  const redirectTo = check.data?.redirect_to;

  useEffect(() => {
    if (redirectTo) go(redirectTo);
  }, [redirectTo]);

  if (check.isPending || redirectTo || leaving)
    return <AuthWaiting text={redirectTo || leaving ? t('settings.oauth.consent.redirecting') : undefined} />;

  const ready = check.data && 'app' in check.data ? check.data : null;
  if (check.error || !ready) {
    const error = check.error;
    const type = error instanceof ApiError ? error.errorType : undefined;
    const text =
      type === 'invalid_client'
        ? t('settings.oauth.consent.unknownClient')
        : type === 'invalid_redirect_uri'
          ? t('settings.oauth.consent.badRedirect')
          : type === 'not_member'
            ? t('settings.oauth.consent.notMember')
            : (error?.message ?? '');
    return (
      <ResultCard kind="error" title={t('settings.oauth.consent.errorTitle')}>
        <Text c="dimmed" data-testid="consent-error">
          {text}
        </Text>
      </ResultCard>
    );
  }

  const { app, space, redirect_uri } = ready;
  const decide = async (decision: 'allow' | 'deny') => {
    setBusy(decision);
    try {
      const { redirect_to } = await decideAuthorization(request, decision);
      setLeaving(true);
      go(redirect_to);
    } catch (error) {
      showError(error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <AuthLayout title={t('settings.oauth.consent.title')}>
      <Stack gap="md" data-testid="consent">
        <Text fw={500}>{t('settings.oauth.consent.asks', { app: app.name, space: space.name })}</Text>
        <Stack gap={6}>
          <Text fz="sm">{t('settings.oauth.consent.may')}</Text>
          <List fz="sm" spacing={4}>
            <List.Item>{t('settings.oauth.consent.mayRead')}</List.Item>
            <List.Item>{t('settings.oauth.consent.mayAct')}</List.Item>
          </List>
        </Stack>
        <Alert variant="light" color="gray" icon={<IconAlertCircle size={18} />} p="sm">
          <Text fz="sm">{t('settings.oauth.consent.mayNot')}</Text>
        </Alert>
        <Text fz="sm" c="dimmed">
          {t('settings.oauth.consent.redirect', { host: hostOf(redirect_uri) })}{' '}
          {t('settings.oauth.consent.revokeLater')}
        </Text>
        <Group grow gap="sm">
          <Button
            variant="default"
            onClick={() => void decide('deny')}
            loading={busy === 'deny'}
            disabled={busy !== null}
            data-testid="consent-deny"
          >
            {t('settings.oauth.consent.deny')}
          </Button>
          <Button
            onClick={() => void decide('allow')}
            loading={busy === 'allow'}
            disabled={busy !== null}
            data-testid="consent-allow"
          >
            {t('settings.oauth.consent.allow')}
          </Button>
        </Group>
      </Stack>
    </AuthLayout>
  );
}
