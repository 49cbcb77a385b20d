import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { recoveryFormSchema } from '@otklik/shared';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/client';
import { useKeptMutation } from '../../api/invalidating';
import { AuthLayout } from '../../components/AuthLayout';
import { useRecaptcha } from '../../components/Recaptcha';
import { ResultCard } from '../../components/ResultCard';
import { useZodForm } from '../../forms/useZodForm';
import { useMessage } from '../../i18n/useLocale';

/** /recovery: send a password reset link. docs/product/errors.md: 404 'Пользователь не найден'; 400 server text; else 'Ошибка'. */
export default function RecoveryScreen() {
  const { t } = useTranslation();
  const message = useMessage();
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const recovery = useKeptMutation({
    mutationFn: (body: { email: string; recaptcha_token?: string }) =>
      authApi.recovery(body.email, body.recaptcha_token),
  });
  const captcha = useRecaptcha();
  const { form, handleSubmit, setServerErrors } = useZodForm(recoveryFormSchema, { email: '' });

  const onSubmit = handleSubmit(async (data) => {
    setError(null);
    const recaptchaToken = captcha.token();
    if (recaptchaToken === '') return captcha.setError(t('account.captchaRequired'));
    captcha.setError(null);
    try {
      const result = await recovery.mutateAsync({ email: data.email, recaptcha_token: recaptchaToken });
      setSent(result.message || message('ok.recoverySent'));
    } catch (e) {
      captcha.reset(); // a token is single-use
      if (!(e instanceof ApiError)) return; // network errors are reported by a toast
      if (e.status === 404) setError(message('error.userNotFound'));
      else if (e.status === 400) {
        if (!setServerErrors(e)) setError(e.message);
      } else setError(message('error.generic'));
    }
  });

  if (sent) {
    return (
      <ResultCard
        kind="mail"
        title={t('recovery.sentHeading')}
        action={{ label: t('common.toLogin'), to: '/login' }}
      >
        <Text c="dimmed" data-testid="recovery-sent">
          {sent}
        </Text>
      </ResultCard>
    );
  }

  return (
    <AuthLayout
      title={t('recovery.heading')}
      subtitle={t('recovery.text')}
      footer={
        <>
          {t('recovery.remembered')}{' '}
          <Anchor component={Link} to="/login" fz="sm" fw={600}>
            {t('login.submit')}
          </Anchor>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate data-testid="recovery-form">
        <Stack gap="md">
          {error && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
              {error}
            </Alert>
          )}
          <TextInput
            label={t('common.email')}
            type="email"
            autoComplete="email"
            autoFocus
            {...form.getInputProps('email')}
          />
          {captcha.widget}
          <Button type="submit" fullWidth size="md" loading={recovery.isPending}>
            {t('recovery.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
