import { Alert, Anchor, Button, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { resetPasswordFormSchema } from '@otklik/shared';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/client';
import { useKeptMutation } from '../../api/invalidating';
import { AuthLayout } from '../../components/AuthLayout';
import { PasswordField } from '../../components/PasswordField';
import { useZodForm } from '../../forms/useZodForm';
import { useMessage } from '../../i18n/useLocale';
import { CodeField, useCodeStep } from './CodeStep';
import { useSignIn } from './useSignIn';

/**
 * /reset_password/{hash}: the link is checked first; a failed check disables the form for good (docs/product/errors.md).
 * With 2FA on the server answers code_required and the code field appears, as at login.
 */
export default function ResetPasswordScreen() {
  const { t } = useTranslation();
  const message = useMessage();
  const { hash = '' } = useParams();
  const signIn = useSignIn();
  const [error, setError] = useState<string | null>(null);
  const codeStep = useCodeStep();
  const check = useQuery({ queryKey: ['reset-check', hash], queryFn: () => authApi.checkResetHash(hash) });
  const reset = useKeptMutation({ mutationFn: authApi.resetPassword });
  const { form, handleSubmit, setServerErrors } = useZodForm(resetPasswordFormSchema, {
    password: '',
    password_confirm: '',
    code: '',
  });

  const checkError = check.isError
    ? check.error instanceof ApiError
      ? check.error.message
      : message('error.generic')
    : null;
  const disabled = !check.isSuccess;

  const onSubmit = handleSubmit(async (data) => {
    if (disabled) return;
    setError(null);
    if (codeStep.required && !data.code) {
      form.setFieldError('code', 'code.required');
      return;
    }
    try {
      const { code, ...passwords } = data;
      const token = await reset.mutateAsync({
        hash,
        ...passwords,
        ...(codeStep.required && code ? { code } : {}),
      });
      notifications.show({ color: 'green', message: message('ok.passwordChanged') });
      signIn(token, '/');
    } catch (e) {
      if (!(e instanceof ApiError)) return;
      if (!codeStep.asksForCode(e) && !setServerErrors(e)) setError(e.message);
    }
  });

  return (
    <AuthLayout
      title={t('reset.heading')}
      subtitle={check.data?.email ? t('reset.forEmail', { email: check.data.email }) : undefined}
    >
      <form onSubmit={onSubmit} noValidate data-testid="reset-form">
        <Stack gap="md">
          {checkError && (
            <Alert
              color="red"
              icon={<IconAlertCircle size={18} />}
              role="alert"
              data-testid="reset-check-error"
            >
              {checkError}{' '}
              <Anchor component={Link} to="/recovery" fz="sm">
                {t('reset.requestNew')}
              </Anchor>
            </Alert>
          )}
          {error && (
            <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
              {error}
            </Alert>
          )}
          <PasswordField
            label={t('reset.password')}
            description={t('signup.passwordHint')}
            autoComplete="new-password"
            disabled={disabled}
            autoFocus
            {...form.getInputProps('password')}
          />
          <PasswordField
            label={t('reset.confirm')}
            autoComplete="new-password"
            disabled={disabled}
            {...form.getInputProps('password_confirm')}
          />
          <CodeField step={codeStep} testId="reset-code" inputProps={form.getInputProps('code')} />
          <Button
            type="submit"
            fullWidth
            size="md"
            disabled={disabled}
            loading={reset.isPending || check.isPending}
          >
            {t('reset.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
