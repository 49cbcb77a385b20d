import { Alert, Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { loginFormSchema } from '@otklik/shared';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/client';
import { useKeptMutation } from '../../api/invalidating';
import { safeRedirect } from '../../api/session';
import { AuthLayout } from '../../components/AuthLayout';
import { PasswordField } from '../../components/PasswordField';
import { useRecaptcha } from '../../components/Recaptcha';
import { useZodForm } from '../../forms/useZodForm';
import { useMessage } from '../../i18n/useLocale';
import { CodeField, useCodeStep } from './CodeStep';
import { SocialButtons } from './SocialButtons';
import { type LoginLocationState, socialErrorKey } from './socialError';
import { useSignIn } from './useSignIn';

/** docs/product/states.md Login: credentials; a code field when the server asks for one; then the redirect or stats. */
export default function LoginScreen() {
  const { t } = useTranslation();
  const message = useMessage();
  const [params] = useSearchParams();
  const location = useLocation();
  const captcha = useRecaptcha();
  const socialKey = socialErrorKey(params.get('social_error'));
  const socialError =
    (location.state as LoginLocationState | null)?.socialError ??
    (socialKey
      ? socialKey.startsWith('account.')
        ? t(socialKey as 'account.socialError')
        : message(socialKey)
      : null);
  const redirect = safeRedirect(params.get('redirect'));
  const signIn = useSignIn();
  const login = useKeptMutation({ mutationFn: authApi.login });
  const codeStep = useCodeStep();
  const [error, setError] = useState<string | null>(null);
  const { form, handleSubmit, setServerErrors } = useZodForm(loginFormSchema, {
    username: '',
    password: '',
    code: '',
  });

  const onSubmit = handleSubmit(async (data) => {
    setError(null);
    if (codeStep.required && !data.code) {
      form.setFieldError('code', 'code.required');
      return;
    }
    const recaptchaToken = captcha.token();
    if (recaptchaToken === '') return captcha.setError(t('account.captchaRequired'));
    captcha.setError(null);
    try {
      const token = await login.mutateAsync({
        username: data.username,
        password: data.password,
        ...(codeStep.required && data.code ? { code: data.code } : {}),
        ...(recaptchaToken ? { recaptcha_token: recaptchaToken } : {}),
      });
      signIn(token, redirect ?? '/');
    } catch (e) {
      captcha.reset(); // a token is single-use (SPEC: captcha resets the captcha)
      if (!(e instanceof ApiError)) return; // network errors are reported by a toast
      if (!codeStep.asksForCode(e) && !setServerErrors(e)) setError(e.message);
    }
  });

  return (
    <AuthLayout
      title={t('login.heading')}
      footer={
        <>
          {t('login.noAccount')}{' '}
          <Anchor component={Link} to="/signup" fz="sm" fw={600}>
            {t('login.signup')}
          </Anchor>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate data-testid="login-form">
        <Stack gap="md">
          {(error ?? socialError) && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert" data-testid="login-error">
              {error ?? socialError}
            </Alert>
          )}
          <TextInput
            label={t('login.email')}
            type="email"
            autoComplete="username"
            inputMode="email"
            autoFocus
            {...form.getInputProps('username')}
          />
          <PasswordField
            label={t('login.password')}
            autoComplete="current-password"
            {...form.getInputProps('password')}
          />
          <CodeField step={codeStep} testId="login-code" inputProps={form.getInputProps('code')} />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to="/recovery" fz="sm">
              {t('login.forgot')}
            </Anchor>
          </Group>
          {captcha.widget}
          <Button type="submit" fullWidth size="md" loading={login.isPending}>
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
      <SocialButtons redirect={redirect} />
    </AuthLayout>
  );
}
