import { Text } from '@mantine/core';
import type { SlackInstallWire } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { finishSlackInstall, slackKey } from '../../api/notifications';
import { AuthWaiting } from '../../components/AuthLayout';
import { ResultCard } from '../../components/ResultCard';
import { useInboxT } from '../../features/inbox/i18n';
import { useMessage } from '../../i18n/useLocale';
import { callbackOutcome, callbackRedirectUri } from './popupResult';

// Slack's code is single-use: one exchange per code, even when the screen mounts twice.
const exchanges = new Map<string, Promise<SlackInstallWire>>();

/** Where settings/notifications opens after Slack: the space that was installed. */
export interface SlackReturnState {
  slackSpaceId: number;
}

/**
 * /callback/slack (issue 18): Slack sends the administrator back here after the consent page (the same
 * tab, not a popup). The code goes to POST /v1/slack/auth, which installs the app for the space the
 * sealed state names; then settings/notifications, where the channel is chosen. A refusal or a failed
 * exchange is shown with the way back.
 */
export default function SlackCallback() {
  // The callback screens are outside the shell: their words are the inbox dictionary's `callback`.
  const t = useInboxT();
  const message = useMessage();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per callback address
  useEffect(() => {
    let cancelled = false;
    const outcome = callbackOutcome(new URLSearchParams(location.search));
    if (outcome.kind === 'failure') {
      setError('key' in outcome.message ? message(outcome.message.key) : outcome.message.text);
      return;
    }
    let exchange = exchanges.get(outcome.code);
    if (!exchange) {
      exchange = finishSlackInstall({
        code: outcome.code,
        state: outcome.state,
        redirect_uri: callbackRedirectUri(window.location.href),
      });
      exchanges.set(outcome.code, exchange);
    }
    exchange.then(
      (installed) => {
        if (cancelled) return;
        queryClient.setQueryData(slackKey(installed.space_id), installed);
        navigate(pathFor('settings-notifications'), {
          replace: true,
          state: { slackSpaceId: installed.space_id } satisfies SlackReturnState,
        });
      },
      (failure: unknown) => {
        if (!cancelled) setError(failure instanceof ApiError ? failure.message : message('error.generic'));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [location.search]);

  if (error !== null)
    return (
      <ResultCard
        kind="error"
        title={t('callback.slackFailed')}
        action={{ label: t('callback.slackBack'), to: pathFor('settings-notifications') }}
      >
        <Text c="dimmed" data-testid="callback-error">
          {error}
        </Text>
      </ResultCard>
    );
  return <AuthWaiting text={t('callback.slackWorking')} testId="callback-working" />;
}
