import { Alert, Button, Stack, TextInput } from '@mantine/core';
import { OTP_CODE_MAX_LENGTH, otpCodeSchema, providerEmailFormSchema } from '@otklik/shared';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/client';
import type { SignupResponse, TokenResponse } from '../../api/types';
import { AuthLayout } from '../../components/AuthLayout';
import { useZodForm } from '../../forms/useZodForm';

/** What the server still needs to finish a social sign-in: an email (no_email) or a 2FA code (code_required). */
export type PendingNeed = 'email' | 'code';

export interface PendingSignIn {
  need: PendingNeed;
  /** The pending token from the server's 400 answer. */
  accessToken: string;
  notice?: string;
}

/** The server's 400 asking for more (no_email / code_required), if that is what this error is. */
export function pendingFrom(error: unknown): PendingSignIn | null {
  if (!(error instanceof ApiError) || !error.body.access_token) return null;
  if (error.errorType === 'no_email') return { need: 'email', accessToken: error.body.access_token };
  if (error.errorType === 'code_required') {
    return { need: 'code', accessToken: error.body.access_token, notice: error.message };
  }
  return null;
}

interface ProviderPendingFormProps {
  provider: string;
  pending: PendingSignIn;
  onResult: (result: TokenResponse | SignupResponse) => void;
  onPending: (pending: PendingSignIn) => void;
}

/** POST /v1/signup/provider {provider, access_token, email | code}. */
export function ProviderPendingForm(props: ProviderPendingFormProps) {
  return props.pending.need === 'email' ? <EmailStep {...props} /> : <CodeStep {...props} />;
}

function useSubmitPending({ provider, pending, onResult, onPending }: ProviderPendingFormProps) {
  const [error, setError] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const submit = async (
    answer: { email: string } | { code: string },
    setServerErrors: (e: unknown) => boolean,
  ) => {
    setError(null);
    setPending(true);
    try {
      onResult(await authApi.providerSignup({ provider, access_token: pending.accessToken, ...answer }));
    } catch (e) {
      const next = pendingFrom(e);
      // Stay on the form: the next question, field errors on the field, anything else above it.
      if (next && next.need !== pending.need) onPending(next);
      else if (!setServerErrors(e) && e instanceof ApiError) setError(e.message);
    } finally {
      setPending(false);
    }
  };
  return { error, isPending, submit };
}

function ErrorAlert({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
      {text}
    </Alert>
  );
}

function EmailStep(props: ProviderPendingFormProps) {
  const { t } = useTranslation();
  const { error, isPending, submit } = useSubmitPending(props);
  const { form, handleSubmit, setServerErrors } = useZodForm(providerEmailFormSchema, { email: '' });
  return (
    <AuthLayout title={t('provider.emailHeading')} subtitle={t('provider.emailText')}>
      <form onSubmit={handleSubmit((data) => submit({ email: data.email }, setServerErrors))} noValidate>
        <Stack>
          <ErrorAlert text={error} />
          <TextInput
            label={t('common.email')}
            type="email"
            autoComplete="email"
            autoFocus
            {...form.getInputProps('email')}
          />
          <Button type="submit" fullWidth loading={isPending}>
            {t('provider.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}

function CodeStep(props: ProviderPendingFormProps) {
  const { t } = useTranslation();
  const { error, isPending, submit } = useSubmitPending(props);
  const { form, handleSubmit, setServerErrors } = useZodForm(otpCodeSchema, { code: '' });
  return (
    <AuthLayout title={t('login.heading')} subtitle={props.pending.notice}>
      <form onSubmit={handleSubmit((data) => submit({ code: data.code }, setServerErrors))} noValidate>
        <Stack>
          <ErrorAlert text={error} />
          <TextInput
            label={t('login.code')}
            description={t('login.codeHint')}
            autoComplete="one-time-code"
            maxLength={OTP_CODE_MAX_LENGTH}
            autoFocus
            data-testid="login-code"
            {...form.getInputProps('code')}
          />
          <Button type="submit" fullWidth loading={isPending}>
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
