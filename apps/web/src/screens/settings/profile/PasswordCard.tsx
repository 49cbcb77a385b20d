import { Alert, Button, Group, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { changePasswordFormSchema } from '@otklik/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { useChangePassword } from '../../../api/me';
import { PasswordField } from '../../../components/PasswordField';
import { useZodForm } from '../../../forms/useZodForm';
import { useMessage } from '../../../i18n/useLocale';
import { SectionCard } from './SectionCard';

/** PUT /v1/me/password {password, new_password}. */
export function PasswordCard() {
  const { t } = useTranslation();
  const message = useMessage();
  const change = useChangePassword();
  const [error, setError] = useState<string | null>(null);
  const { form, handleSubmit, setServerErrors } = useZodForm(changePasswordFormSchema, {
    password: '',
    new_password: '',
  });

  const onSubmit = handleSubmit(async (data) => {
    setError(null);
    try {
      const result = await change.mutateAsync(data);
      form.reset();
      notifications.show({ color: 'green', message: result?.message || message('ok.passwordChanged') });
    } catch (e) {
      if (!setServerErrors(e) && e instanceof ApiError) setError(e.message);
    }
  });

  return (
    <SectionCard title={t('profile.passwordHeading')}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Stack gap="md" maw={420}>
            <PasswordField
              label={t('profile.currentPassword')}
              autoComplete="current-password"
              {...form.getInputProps('password')}
            />
            <PasswordField
              label={t('profile.newPassword')}
              description={t('signup.passwordHint')}
              autoComplete="new-password"
              {...form.getInputProps('new_password')}
            />
          </Stack>
          <Group justify="flex-end">
            <Button type="submit" variant="default" loading={change.isPending}>
              {t('profile.changePassword')}
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}
