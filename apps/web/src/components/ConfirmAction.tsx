import { Button, Group, Modal, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showError } from './notify';

interface ConfirmActionProps {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** Runs on confirm; a thrown error is shown and the dialog stays open. */
  onConfirm: () => Promise<unknown>;
  /** The trigger, given a function that opens the dialog. */
  children: (open: () => void) => ReactNode;
  color?: string;
}

/** A destructive action behind "are you sure". */
export function ConfirmAction({
  title,
  message,
  confirmLabel,
  onConfirm,
  children,
  color = 'red',
}: ConfirmActionProps) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      setOpened(false);
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {children(() => setOpened(true))}
      <Modal opened={opened} onClose={() => setOpened(false)} title={title} centered size="sm">
        <Text fz="sm">{message}</Text>
        <Group justify="flex-end" mt="lg" gap="xs">
          <Button variant="default" onClick={() => setOpened(false)}>
            {t('common.cancel')}
          </Button>
          <Button color={color} loading={busy} onClick={() => void confirm()} data-testid="confirm-action">
            {confirmLabel}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
