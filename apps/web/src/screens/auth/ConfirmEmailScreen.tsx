import { Button, Text } from '@mantine/core';
import { REDIRECT_NOTICE_MS } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/client';
import { api } from '../../api/instance';
import type { MessageWithToken } from '../../api/types';
import { AuthWaiting } from '../../components/AuthLayout';
import { ResultCard } from '../../components/ResultCard';
import { useMessage } from '../../i18n/useLocale';

type State =
  | { kind: 'working' }
  | { kind: 'done'; message: string; target: string }
  | { kind: 'failed'; detail: string };

// The confirmation hash is single-use: one request per hash even if the screen mounts twice.
const confirmations = new Map<string, Promise<MessageWithToken>>();

/** Signed in with the new token: no connected accounts yet → add one, otherwise statistics (docs/product/states.md). */
async function landingPath(): Promise<string> {
  if (!api.getToken()) return pathFor('login');
  try {
    const objects = await authApi.objects();
    return objects.items.length === 0 ? pathFor('settings-accounts-add') : pathFor('stats');
  } catch {
    return pathFor('stats');
  }
}

/** /confirm_email/{hash}: confirm, sign in with the returned token, then route on. */
export default function ConfirmEmailScreen() {
  const { t } = useTranslation();
  const message = useMessage();
  const { hash = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>({ kind: 'working' });

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per hash
  useEffect(() => {
    let confirmation = confirmations.get(hash);
    if (!confirmation) {
      confirmation = authApi.confirmEmail(hash);
      confirmations.set(hash, confirmation);
    }
    confirmation
      .then(async (result) => {
        if (result.token) {
          queryClient.clear();
          api.setToken(result.token);
        } else await queryClient.invalidateQueries({ queryKey: ['me'] });
        const target = await landingPath();
        setState({ kind: 'done', message: result.message || message('ok.emailConfirmed'), target });
      })
      .catch((error: unknown) =>
        setState({ kind: 'failed', detail: error instanceof ApiError ? error.message : '' }),
      );
  }, [hash]);

  useEffect(() => {
    if (state.kind !== 'done') return;
    const timer = setTimeout(() => void navigate(state.target, { replace: true }), REDIRECT_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [state, navigate]);

  if (state.kind === 'failed') {
    return (
      <ResultCard
        kind="error"
        title={message('error.confirmEmailFailed')}
        action={{ label: t('common.toHome'), to: '/' }}
      >
        <Text c="dimmed">{message('error.confirmEmailHint')}</Text>
        {state.detail && (
          <Text c="dimmed" fz="sm">
            {state.detail}
          </Text>
        )}
      </ResultCard>
    );
  }
  if (state.kind === 'done') {
    return (
      <ResultCard kind="success" title={t('confirm.successHeading')}>
        <Text c="dimmed" data-testid="confirm-done">
          {state.message}
        </Text>
        <Text c="dimmed" fz="sm">
          {t('confirm.redirecting')}
        </Text>
        <Button fullWidth onClick={() => void navigate(state.target, { replace: true })}>
          {t('common.continue')}
        </Button>
      </ResultCard>
    );
  }
  return <AuthWaiting text={t('confirm.checking')} />;
}
