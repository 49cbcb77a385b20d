import {
  Button,
  Code,
  CopyButton,
  Group,
  Image,
  List,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { OTP_CODE_MAX_LENGTH, otpCodeSchema } from '@otklik/shared';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { useConfirmOtp } from '../../../api/me';
import type { OtpSetup } from '../../../api/types';
import { useZodForm } from '../../../forms/useZodForm';

/** Step two of enabling 2FA: scan, keep the recovery codes, confirm with a code (POST /v1/me/otp/confirm). */
export function TwoFactorSetup({ setup, onDone }: { setup: OtpSetup; onDone: () => void }) {
  const { t } = useTranslation();
  const confirm = useConfirmOtp();
  const { form, handleSubmit, setServerErrors } = useZodForm(otpCodeSchema, { code: '' });
  // Only a PNG data URL is shown as an image; anything else is ignored.
  const qr = setup.qr.startsWith('data:image/png') ? setup.qr : null;

  const onSubmit = handleSubmit(async (data) => {
    try {
      await confirm.mutateAsync({ code: data.code });
      notifications.show({ color: 'green', message: t('otp.enabled') });
      onDone();
    } catch (error) {
      if (setServerErrors(error)) return;
      if (error instanceof ApiError) form.setFieldError('code', error.message);
    }
  });

  return (
    <Stack gap="md" data-testid="otp-setup">
      <Text fz="sm">{t('otp.scan')}</Text>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="lg">
        <Stack gap="xs" align="center">
          {qr && <Image src={qr} alt={t('otp.qrAlt')} w={180} h={180} fit="contain" />}
          <Text fz="xs" c="dimmed">
            {t('otp.secret')}
          </Text>
          <Group gap={6} wrap="nowrap">
            <Code fz="sm" style={{ wordBreak: 'break-all' }} data-testid="otp-secret">
              {setup.secret}
            </Code>
            <CopyButton value={setup.secret}>
              {({ copied, copy }) => (
                <Button size="compact-xs" variant="subtle" onClick={copy} aria-label={t('otp.secret')}>
                  {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Stack>
        <Stack gap="xs">
          <Text fw={600} fz="sm">
            {t('otp.recovery')}
          </Text>
          <Text fz="xs" c="dimmed">
            {t('otp.recoveryHint')}
          </Text>
          <List spacing={2} fz="sm" ff="monospace" listStyleType="none" data-testid="otp-recovery-codes">
            {setup.recovery_codes.map((code) => (
              <List.Item key={code}>{code}</List.Item>
            ))}
          </List>
        </Stack>
      </SimpleGrid>
      <form onSubmit={onSubmit} noValidate>
        <Group align="flex-start" gap="sm">
          <TextInput
            aria-label={t('otp.code')}
            placeholder={t('otp.code')}
            autoComplete="one-time-code"
            maxLength={OTP_CODE_MAX_LENGTH}
            w={{ base: '100%', xs: 200 }}
            {...form.getInputProps('code')}
          />
          <Button type="submit" loading={confirm.isPending}>
            {t('otp.confirm')}
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
