import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  type GroupProps,
  Paper,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ConfirmAction } from '../../components/ConfirmAction';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';

// The list half of the settings kit (docs/HOW-TO.md "add a settings screen"): the list of a space's records
// with its loading, error and empty states, one row shape, row links and actions, delete behind a
// confirmation. Mutations refetch the list (the api hooks invalidate their keys); nothing is optimistic.

interface ListQuery {
  isPending: boolean;
  error: Error | null;
  refetch: () => unknown;
}

/** The "Add …" button in a list screen's header: a link to the create form. */
export function AddButton({ to, label, testId }: { to: string; label: string; testId?: string }) {
  return (
    <Button component={Link} to={to} leftSection={<IconPlus size={16} />} data-testid={testId}>
      {label}
    </Button>
  );
}

/** The feature is off for the caller (tariff, space flag or role): the heading and why, not "not found". */
export function SettingsOff({ title, text, testId }: { title: string; text: string; testId: string }) {
  return (
    <Stack gap="lg">
      <PageHeader title={title} />
      <Alert color="gray" variant="light" data-testid={testId}>
        {text}
      </Alert>
    </Stack>
  );
}

/**
 * The records of a list screen: loading and failure (QueryState, with the screen's own error title and
 * retry text where it has them), the empty card, or the rows in one bordered card.
 */
export function SettingsList<T>({
  query,
  rows,
  empty,
  emptyTestId,
  errorTitle,
  retryLabel,
  testId,
  children,
}: {
  query: ListQuery;
  rows: T[];
  empty: ReactNode;
  emptyTestId?: string;
  errorTitle?: string;
  retryLabel?: string;
  testId?: string;
  children: (rows: T[]) => ReactNode;
}) {
  return (
    <QueryState queries={[query]} errorTitle={errorTitle} retryLabel={retryLabel}>
      {() =>
        rows.length === 0 ? (
          <EmptyCard testId={emptyTestId}>{empty}</EmptyCard>
        ) : (
          <Paper withBorder radius="md" p={0} data-testid={testId}>
            {children(rows)}
          </Paper>
        )
      }
    </QueryState>
  );
}

/** The card a list shows when it has nothing. */
export function EmptyCard({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Paper withBorder radius="md" p="xl">
      <Text ta="center" c="dimmed" data-testid={testId}>
        {children}
      </Text>
    </Paper>
  );
}

/** One record of a settings list: what it is on the left, its actions on the right. */
export function ListRow({
  testId,
  main,
  actions,
  ...props
}: { testId: string; main: ReactNode; actions: ReactNode } & Omit<GroupProps, 'children'>) {
  return (
    <Group
      justify="space-between"
      wrap="nowrap"
      p="sm"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      data-testid={testId}
      {...props}
    >
      {main}
      <Group gap={2} wrap="nowrap">
        {actions}
      </Group>
    </Group>
  );
}

/** The record's name, a link to its form. */
export function RowLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} fz="sm" fw={500} truncate="end">
      {children}
    </Anchor>
  );
}

/** An icon action of a row, with its name as tooltip and accessible label; a link when `to` is given. */
export function RowAction({
  label,
  icon,
  to,
  onClick,
  color = 'gray',
  testId,
}: {
  label: string;
  icon: ReactNode;
  to?: string;
  onClick?: () => void;
  color?: string;
  testId?: string;
}) {
  return (
    <Tooltip label={label}>
      {to ? (
        <ActionIcon
          component={Link}
          to={to}
          variant="subtle"
          color={color}
          aria-label={label}
          data-testid={testId}
        >
          {icon}
        </ActionIcon>
      ) : (
        <ActionIcon variant="subtle" color={color} onClick={onClick} aria-label={label} data-testid={testId}>
          {icon}
        </ActionIcon>
      )}
    </Tooltip>
  );
}

/** The delete action of a row: a red bin that asks first (ConfirmAction) and runs `onConfirm`. */
export function DeleteRowAction({
  title,
  message,
  label,
  onConfirm,
  testId,
}: {
  title: string;
  message: ReactNode;
  /** The bin's tooltip and the confirm button's text. */
  label: string;
  onConfirm: () => Promise<unknown>;
  testId?: string;
}) {
  return (
    <ConfirmAction title={title} message={message} confirmLabel={label} onConfirm={onConfirm}>
      {(open) => (
        <RowAction label={label} icon={<IconTrash size={16} />} color="red" onClick={open} testId={testId} />
      )}
    </ConfirmAction>
  );
}
