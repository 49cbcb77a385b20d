import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { OTP_CODE_MAX_LENGTH, resetPasswordFormSchema } from '@otklik/shared';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/client';
import { AuthLayout } from '../../components/AuthLayout';
import { PasswordField } from '../../components/PasswordField';
import { useZodForm } from '../../forms/useZodForm';
import { useMessage } from '../../i18n/useLocale';
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
  const [codeRequired, setCodeRequired] = useState(false);
  const [codeNotice, setCodeNotice] = useState<string | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const check = useQuery({ queryKey: ['reset-check', hash], queryFn: () => authApi.checkResetHash(hash) });
  const reset = useMutation({ mutationFn: authApi.resetPassword });
  const { form, handleSubmit, setServerErrors } = useZodForm(resetPasswordFormSchema, {
    password: '',
    password_confirm: '',
    code: '',
  });

  useEffect(() => {
    if (codeRequired) codeRef.current?.focus();
  }, [codeRequired]);

  const checkError = check.isError
    ? check.error instanceof ApiError
      ? check.error.message
      : message('error.generic')
    : null;
  const disabled = !check.isSuccess;

  const onSubmit = handleSubmit(async (data) => {
    if (disabled) return;
    setError(null);
    if (codeRequired && !data.code) {
      form.setFieldError('code', 'code.required');
      return;
    }
    try {
      const { code, ...passwords } = data;
      const token = await reset.mutateAsync({
        hash,
        ...passwords,
        ...(codeRequired && code ? { code } : {}),
      });
      notifications.show({ color: 'green', message: message('ok.passwordChanged') });
      signIn(token, '/');
    } catch (e) {
      if (!(e instanceof ApiError)) return;
      if (e.status === 400 && e.errorType === 'code_required') {
        setCodeRequired(true);
        setCodeNotice(e.message);
        return;
      }
      if (!setServerErrors(e)) setError(e.message);
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
          {codeRequired && (
            <Stack gap={6}>
              {codeNotice && (
                <Text fz="sm" c="indigo.8" role="status">
                  {codeNotice}
                </Text>
              )}
              <TextInput
                ref={codeRef}
                label={t('login.code')}
                description={t('login.codeHint')}
                autoComplete="one-time-code"
                maxLength={OTP_CODE_MAX_LENGTH}
                data-testid="reset-code"
                {...form.getInputProps('code')}
              />
            </Stack>
          )}
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
