import { Button, type ButtonProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { ConfirmAction } from './ConfirmAction';
import { showSaved } from './notify';

/** A red "Delete" text button: asks first (ConfirmAction), deletes, then says `deleted`. */
export function DeleteButton({
  title,
  message,
  label,
  deleted,
  onDelete,
  size,
  testId,
}: {
  title: string;
  message: ReactNode;
  /** The button's text and the confirm button's. */
  label: string;
  deleted: string;
  onDelete: () => Promise<unknown>;
  size: ButtonProps['size'];
  testId?: string;
}) {
  return (
    <ConfirmAction
      title={title}
      message={message}
      confirmLabel={label}
      onConfirm={async () => {
        await onDelete();
        showSaved(deleted);
      }}
    >
      {(open) => (
        <Button size={size} variant="subtle" color="red" onClick={open} data-testid={testId}>
          {label}
        </Button>
      )}
    </ConfirmAction>
  );
}
