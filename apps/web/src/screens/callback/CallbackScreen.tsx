import { Text } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { finishAccountOAuth, finishPulseCheck } from '../../api/accounts';
import { ApiError } from '../../api/client';
import type { ConnectedAccount } from '../../api/inboxTypes';
import { api } from '../../api/instance';
import { queryKeys } from '../../api/keys';
import { meQueryKey, useHasToken } from '../../api/me';
import { loginPath } from '../../api/session';
import type { Me } from '../../api/types';
import { AuthWaiting } from '../../components/AuthLayout';
import { ResultCard } from '../../components/ResultCard';
import { useInboxT } from '../../features/inbox/i18n';
import { useMessage } from '../../i18n/useLocale';
import { writeStorage } from '../../lib/storage';
import {
  type CallbackOutcome,
  callbackOutcome,
  callbackRedirectUri,
  isPopupWindow,
  POPUP_RESULT_KEY,
  type PopupResult,
  providerOfCallbackPath,
  pulseCheckOf,
  serializePopupResult,
} from './popupResult';
import SlackCallback from './SlackCallback';

type View = { kind: 'working' } | { kind: 'done'; result: PopupResult; popup: boolean };

// The network's code is single-use: one exchange per code, even when the screen mounts twice.
const exchanges = new Map<string, Promise<ConnectedAccount>>();

/**
 * /callback/{provider} (docs/product/screens-and-routes.md login-required callbacks): where the network sends the connect popup
 * back. Finishes the connect (docs/product/api.md POST v1/{provider}/auth), leaves the popup result in local storage
 * for the window that opened the popup (docs/product/entities.md) and closes itself; opened in a tab of its own, it goes
 * on to accounts/add/success or shows what went wrong (docs/product/errors.md).
 */
export default function CallbackScreen() {
  const location = useLocation();
  const hasToken = useHasToken();
  // /callback/tiktok is a public route (TikTok sends back to one fixed address): without a session the
  // person signs in first and comes back here with the code, as the login-required callbacks do.
  if (!hasToken) return <Navigate to={loginPath(location.pathname + location.search)} replace />;
  // Slack is not an account: it carries a space's notifications (issue 18), installed in this same tab.
  if (providerOfCallbackPath(location.pathname) === 'slack') return <SlackCallback />;
  return <AccountCallback />;
}

function AccountCallback() {
  const t = useInboxT();
  const message = useMessage();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [view, setView] = useState<View>({ kind: 'working' });
  const provider = providerOfCallbackPath(location.pathname) ?? '';

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per callback address
  useEffect(() => {
    let cancelled = false;
    const query = new URLSearchParams(location.search);
    const check = provider === 'tpulse' ? pulseCheckOf(query) : null;
    const outcome: CallbackOutcome = check
      ? { kind: 'exchange', code: check, state: undefined }
      : callbackOutcome(query);
    const popup = isPopupWindow(window);

    const me = queryClient
      .fetchQuery({ queryKey: meQueryKey, queryFn: () => api.get<Me>('/v1/me') })
      .then((user) => user.id)
      .catch(() => null);

    const finish = async (result: Omit<PopupResult, 'user' | 'at'>) => {
      const full: PopupResult = { ...result, user: await me, at: Date.now() };
      if (cancelled) return;
      writeStorage(POPUP_RESULT_KEY, serializePopupResult(full));
      if (full.status === 'success') {
        for (const queryKey of [queryKeys.objects, queryKeys.accountErrors, queryKeys.counts, ['accounts']])
          void queryClient.invalidateQueries({ queryKey });
      }
      if (popup) {
        // The opener picks the result up from local storage; the popup has done its job.
        window.close();
      } else if (full.status === 'success') {
        navigate(pathFor('settings-accounts-add-success'), {
          replace: true,
          state: full.account ? { account: full.account } : null,
        });
        return;
      }
      // Still here: not a popup, or a browser that keeps windows it did not open by script.
      setView({ kind: 'done', result: full, popup });
    };

    if (outcome.kind === 'failure') {
      const text = 'key' in outcome.message ? message(outcome.message.key) : outcome.message.text;
      void finish({ status: 'failure', source: provider, error: text });
    } else {
      let exchange = exchanges.get(outcome.code);
      if (!exchange) {
        exchange = (
          check
            ? finishPulseCheck(check)
            : finishAccountOAuth(provider, {
                code: outcome.code,
                state: outcome.state,
                redirect_uri: callbackRedirectUri(window.location.href),
              })
        ).then((answer) => ({ ...answer.object }));
        exchanges.set(outcome.code, exchange);
      }
      exchange.then(
        (account) => finish({ status: 'success', source: provider, error: null, account }),
        (error: unknown) =>
          finish({
            status: 'failure',
            source: provider,
            error: error instanceof ApiError ? error.message : message('error.generic'),
          }),
      );
    }
    return () => {
      cancelled = true;
    };
  }, [location.pathname, location.search]);

  if (view.kind === 'done' && view.result.status === 'failure') {
    return (
      <ResultCard
        kind="error"
        title={t('callback.failed')}
        action={
          view.popup ? undefined : { label: t('callback.backToAdd'), to: pathFor('settings-accounts-add') }
        }
      >
        <Text c="dimmed" data-testid="callback-error">
          {view.result.error}
        </Text>
      </ResultCard>
    );
  }
  if (view.kind === 'done') {
    return (
      <ResultCard kind="success" title={t('callback.success')}>
        <Text c="dimmed">{t('callback.successPopup')}</Text>
      </ResultCard>
    );
  }
  return <AuthWaiting text={t('callback.working')} testId="callback-working" />;
}
