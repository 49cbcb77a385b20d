import { Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { authApi, isTokenResponse } from '../../api/auth';
import { ApiError } from '../../api/client';
import type { SignupResponse, TokenResponse } from '../../api/types';
import { AuthWaiting } from '../../components/AuthLayout';
import { ResultCard } from '../../components/ResultCard';
import { useLocale, useMessage } from '../../i18n/useLocale';
import { takeLoginRedirect } from './loginRedirect';
import { type PendingSignIn, ProviderPendingForm, pendingFrom } from './ProviderPendingForm';
import type { LoginLocationState } from './socialError';
import { useSignIn } from './useSignIn';

type State =
  | { kind: 'working' }
  | { kind: 'pending'; pending: PendingSignIn }
  | { kind: 'message'; text: string }
  | { kind: 'failed'; text: string };

// The provider's code is single-use: one exchange per code, even if the screen mounts twice.
const exchanges = new Map<string, Promise<TokenResponse | SignupResponse>>();

/** /login/{provider}: the social sign-in callback (docs/product/api.md POST v1/signup/provider). */
export default function ProviderCallbackScreen() {
  const { t } = useTranslation();
  const message = useMessage();
  const locale = useLocale();
  const { provider = '' } = useParams();
  const [params] = useSearchParams();
  const signIn = useSignIn();
  const [state, setState] = useState<State>({ kind: 'working' });
  const code = params.get('code');
  const denied = params.get('error');

  const finish = (result: TokenResponse | SignupResponse) => {
    if (isTokenResponse(result)) signIn(result, takeLoginRedirect());
    else setState({ kind: 'message', text: result.message });
  };

  const fail = (error: unknown) => {
    const pending = pendingFrom(error);
    if (pending) setState({ kind: 'pending', pending });
    else if (error instanceof ApiError) setState({ kind: 'failed', text: error.message });
    else setState({ kind: 'failed', text: message('error.generic') });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per provider code
  useEffect(() => {
    // docs/product/errors.md: declined access and a missing code are reported here, without calling the server.
    if (denied) return setState({ kind: 'failed', text: message('error.accessDenied') });
    if (!code) return setState({ kind: 'failed', text: message('error.missingCode') });
    let exchange = exchanges.get(code);
    if (!exchange) {
      exchange = authApi.providerSignup({
        provider,
        code,
        state: params.get('state') ?? undefined,
        redirect_uri: `${window.location.origin}/login/${provider}`,
        locale,
      });
      exchanges.set(code, exchange);
    }
    exchange.then(finish, fail);
  }, [code, denied, provider]);

  if (state.kind === 'failed') {
    // Back to the login screen, which shows why (issue 13 item 4).
    const back: LoginLocationState = { socialError: state.text };
    return <Navigate to="/login" replace state={back} />;
  }
  if (state.kind === 'message') {
    return (
      <ResultCard kind="mail" title={t('signup.sentHeading')}>
        <Text c="dimmed">{state.text}</Text>
      </ResultCard>
    );
  }
  if (state.kind === 'pending') {
    return (
      <ProviderPendingForm
        key={state.pending.need}
        provider={provider}
        pending={state.pending}
        onResult={finish}
        onPending={(pending) => setState({ kind: 'pending', pending })}
      />
    );
  }
  return <AuthWaiting text={t('provider.processing')} />;
}
