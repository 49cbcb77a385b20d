import { Button, Group, type MantineSize, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A small form in a dialog: the fields, then Cancel (closes) and the submit button on the right. Enter or
 * the submit button runs `onSubmit` (the page does not reload).
 */
export function ModalForm({
  title,
  size,
  onClose,
  onSubmit,
  cancelLabel,
  submitLabel,
  saving,
  submitTestId,
  testId,
  gap = 'sm',
  children,
}: {
  title: ReactNode;
  size?: MantineSize;
  onClose: () => void;
  onSubmit: () => void;
  cancelLabel: string;
  submitLabel: string;
  saving: boolean;
  submitTestId: string;
  /** The form element's test id. */
  testId?: string;
  gap?: MantineSize;
  children: ReactNode;
}) {
  return (
    <Modal opened onClose={onClose} title={title} size={size}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
        data-testid={testId}
      >
        <Stack gap={gap}>
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {cancelLabel}
            </Button>
            <Button type="submit" loading={saving} data-testid={submitTestId}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
