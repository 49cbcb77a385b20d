import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

// The card of a hand-built create/edit form (macros, auto-rules, reply templates, AI agents): the form
// in a bordered card, its fields in one column, and the titles of its longer parts (a list of actions,
// a condition tree, variants).

/** The form in its card; Enter or a submit button runs `onSubmit` (the page does not reload). */
export function FormCard({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <Stack gap="sm">{children}</Stack>
      </form>
    </Paper>
  );
}

/** The title of a part of the form, with an optional hint line and the part's own error under it. */
export function FormPartTitle({ title, hint, error }: { title: string; hint?: string; error?: string }) {
  return (
    <>
      <Text fw={500} fz="sm" mt="sm">
        {title}
      </Text>
      {hint && (
        <Text fz="xs" c="dimmed">
          {hint}
        </Text>
      )}
      {error && (
        <Text fz="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </>
  );
}

/** The end of the form, on the right: Cancel (a link back) and Save; a read-only form has no Save. */
export function CancelSave({
  cancelTo,
  cancelLabel,
  saveLabel,
  saving,
  saveTestId,
  readOnly = false,
}: {
  cancelTo: string;
  cancelLabel: string;
  saveLabel: string;
  saving: boolean;
  saveTestId: string;
  readOnly?: boolean;
}) {
  return (
    <Group justify="flex-end" mt="md">
      <Button variant="default" component={Link} to={cancelTo}>
        {cancelLabel}
      </Button>
      {!readOnly && (
        <Button type="submit" loading={saving} data-testid={saveTestId}>
          {saveLabel}
        </Button>
      )}
    </Group>
  );
}
