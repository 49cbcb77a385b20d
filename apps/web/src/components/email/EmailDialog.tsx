import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NetworkError } from '../../api/client';
import { useSendConfirmEmail } from '../../api/me';
import { ChangeEmailForm } from './ChangeEmailForm';

/** docs/product/states.md Email dialog states. */
export type EmailDialogState = 'resend' | 'edit' | 'error' | 'success';

interface EmailDialogProps {
  opened: boolean;
  onClose: () => void;
  email: string;
  initialState?: EmailDialogState;
}

export function EmailDialog({ opened, onClose, email, initialState = 'resend' }: EmailDialogProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<EmailDialogState>(initialState);
  const [text, setText] = useState('');
  const send = useSendConfirmEmail();

  useEffect(() => {
    if (opened) setState(initialState);
  }, [opened, initialState]);

  const show = (next: EmailDialogState, message: string) => {
    setText(message);
    setState(next);
  };

  const resend = async () => {
    try {
      await send.mutateAsync({ email });
      // Say where it went, not only that it did (issue 13 item 10).
      show('success', t('account.signupSentAgain', { email }));
    } catch (error) {
      // A network error is already reported by a toast.
      if (!(error instanceof NetworkError) && error instanceof Error) show('error', error.message);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('emailConfirm.title')}
      centered
      data-testid="email-dialog"
    >
      {state === 'resend' && (
        <Stack>
          <Text fz="sm">{t('emailConfirm.sent', { email })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setState('edit')}>
              {t('emailConfirm.change')}
            </Button>
            <Button onClick={resend} loading={send.isPending}>
              {t('emailConfirm.resend')}
            </Button>
          </Group>
        </Stack>
      )}
      {state === 'edit' && (
        <ChangeEmailForm
          email={email}
          onDone={(message) => show('success', message)}
          onError={(message) => show('error', message)}
          onCancel={initialState === 'edit' ? onClose : () => setState('resend')}
        />
      )}
      {state === 'error' && (
        <Stack>
          <Alert
            color="red"
            icon={<IconAlertCircle size={18} />}
            title={t('emailConfirm.errorTitle')}
            role="alert"
          >
            {text}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setState(initialState)}>
              {t('emailConfirm.tryAgain')}
            </Button>
          </Group>
        </Stack>
      )}
      {state === 'success' && (
        <Stack>
          <Alert
            color="green"
            icon={<IconCircleCheck size={18} />}
            title={t('emailConfirm.successTitle')}
            role="status"
          >
            {text}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('common.close')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
