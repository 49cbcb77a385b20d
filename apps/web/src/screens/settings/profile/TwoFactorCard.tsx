import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { changePasswordFormSchema } from '@otklik/shared';
import { IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { useDisableOtp, useStartOtp } from '../../../api/me';
import type { OtpSetup } from '../../../api/types';
import { PasswordField } from '../../../components/PasswordField';
import { useZodForm } from '../../../forms/useZodForm';
import { SectionCard } from './SectionCard';
import { TwoFactorSetup } from './TwoFactorSetup';

const disableSchema = changePasswordFormSchema.pick({ password: true });

/** Two-factor block: enable (QR, key, recovery codes, code) or disable with the password. */
export function TwoFactorCard({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const start = useStartOtp();
  const [setup, setSetup] = useState<OtpSetup | null>(null);

  const onEnable = async () => {
    try {
      setSetup(await start.mutateAsync(undefined));
    } catch (error) {
      if (error instanceof ApiError) notifications.show({ color: 'red', message: error.message });
    }
  };

  return (
    <SectionCard title={t('otp.heading')} description={enabled ? t('otp.on') : t('otp.off')}>
      <Group gap="xs">
        <IconShieldLock size={18} />
        <Badge color={enabled ? 'green' : 'gray'} variant="light" tt="none" data-testid="otp-status">
          {enabled ? t('otp.enabled') : t('otp.disabled')}
        </Badge>
      </Group>
      {enabled ? (
        <DisableOtpForm />
      ) : setup ? (
        <TwoFactorSetup setup={setup} onDone={() => setSetup(null)} />
      ) : (
        <Group>
          <Button onClick={onEnable} loading={start.isPending}>
            {t('otp.enable')}
          </Button>
        </Group>
      )}
    </SectionCard>
  );
}

function DisableOtpForm() {
  const { t } = useTranslation();
  const disable = useDisableOtp();
  const { form, handleSubmit, setServerErrors } = useZodForm(disableSchema, { password: '' });

  const onSubmit = handleSubmit(async (data) => {
    try {
      await disable.mutateAsync({ password: data.password });
      notifications.show({ color: 'green', message: t('otp.disabled') });
    } catch (error) {
      if (setServerErrors(error)) return;
      if (error instanceof ApiError) form.setFieldError('password', error.message);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Text fz="sm" c="dimmed">
          {t('otp.disablePassword')}
        </Text>
        <Group align="flex-start" gap="sm">
          <PasswordField
            aria-label={t('otp.disablePassword')}
            autoComplete="current-password"
            w={{ base: '100%', xs: 260 }}
            {...form.getInputProps('password')}
          />
          <Button type="submit" color="red" variant="light" loading={disable.isPending}>
            {t('otp.disable')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
