import { Alert, Button, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMail } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { Me } from '../../api/types';

// The dialog (and its form) loads on first open.
const EmailDialog = lazy(() => import('./EmailDialog').then((module) => ({ default: module.EmailDialog })));

/** Shown while user.email_status < 1 (docs/product/entities.md): resend the link or change the address. */
export function EmailConfirmBanner({ user }: { user: Me }) {
  const { t } = useTranslation();
  const [opened, dialog] = useDisclosure(false);
  return (
    <>
      <Alert color="yellow" radius={0} py="xs" icon={<IconMail size={18} />} data-testid="email-banner">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fz="sm">{t('emailConfirm.banner', { email: user.email })}</Text>
          <Button size="compact-sm" variant="white" color="dark" onClick={dialog.open}>
            {t('emailConfirm.open')}
          </Button>
        </Group>
      </Alert>
      {opened && (
        <Suspense fallback={null}>
          <EmailDialog opened={opened} onClose={dialog.close} email={user.email} />
        </Suspense>
      )}
    </>
  );
}
