import {
  ActionIcon,
  type ActionIconProps,
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
import { SpaceSelect } from '../../components/SpaceSelect';
import type { useManagedSpace } from './useManagedSpace';

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

/**
 * The top of a list screen: the heading with its actions (the Add button last), an optional hint line,
 * and the space picker (useManagedSpace).
 */
export function ListHeader({
  title,
  actions,
  hint,
  space,
}: {
  title: ReactNode;
  actions: ReactNode;
  hint?: ReactNode;
  space: ReturnType<typeof useManagedSpace>;
}) {
  return (
    <>
      <PageHeader title={title} actions={actions} />
      {hint && (
        <Text c="dimmed" fz="sm">
          {hint}
        </Text>
      )}
      <SpaceSelect spaces={space.spaces} value={space.spaceId} onChange={space.setSpace} />
    </>
  );
}

/** The feature is off for the caller (tariff, space flag or role): the heading and why, not "not found". */
export function SettingsOff({ title, text, testId }: { title: string; text: string; testId: string }) {
  return (
    <Stack gap="lg">
      <PageHeader title={title} />
      <OffNote testId={testId}>{text}</OffNote>
    </Stack>
  );
}

/** Why a screen shows nothing to manage (not the caller's, not enabled), where the screen keeps its own frame. */
export function OffNote({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Alert color="gray" variant="light" data-testid={testId}>
      {children}
    </Alert>
  );
}

/**
 * The records of a list screen: loading and failure (QueryState, with the screen's own error title and
 * retry text where it has them), the empty card, or the rows in one bordered card.
 * Without `query`, the screen already waits for the answer (one query feeding several lists).
 * `emptyLine`: the empty state as a dimmed line, for a list inside a section card (no card in a card).
 */
export function SettingsList<T>({
  query,
  rows,
  empty,
  emptyTestId,
  emptyLine = false,
  errorTitle,
  retryLabel,
  testId,
  children,
}: {
  query?: ListQuery;
  rows: T[];
  empty: ReactNode;
  emptyTestId?: string;
  emptyLine?: boolean;
  errorTitle?: string;
  retryLabel?: string;
  testId?: string;
  children: (rows: T[]) => ReactNode;
}) {
  const Empty = emptyLine ? EmptyLine : EmptyCard;
  const body = () =>
    rows.length === 0 ? (
      <Empty testId={emptyTestId}>{empty}</Empty>
    ) : (
      <Paper withBorder radius="md" p={0} data-testid={testId}>
        {children(rows)}
      </Paper>
    );
  if (!query) return body();
  return (
    <QueryState queries={[query]} errorTitle={errorTitle} retryLabel={retryLabel}>
      {body}
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

/** The line a list or table inside a section card shows when it has nothing. */
export function EmptyLine({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Text c="dimmed" fz="sm" data-testid={testId}>
      {children}
    </Text>
  );
}

/**
 * One record of a settings list: what it is on the left (`main`, and a dimmed `subtitle` line under it),
 * its actions on the right.
 */
export function ListRow({
  testId,
  main,
  subtitle,
  actions,
  actionsGap = 2,
  ...props
}: {
  testId: string;
  main: ReactNode;
  subtitle?: ReactNode;
  actions: ReactNode;
  actionsGap?: GroupProps['gap'];
} & Omit<GroupProps, 'children'>) {
  return (
    <Group
      justify="space-between"
      wrap="nowrap"
      p="sm"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      data-testid={testId}
      {...props}
    >
      {subtitle === undefined ? (
        main
      ) : (
        <Stack gap={2} miw={0}>
          {main}
          <Text fz="xs" c="dimmed" truncate="end">
            {subtitle}
          </Text>
        </Stack>
      )}
      <Group gap={actionsGap} wrap="nowrap">
        {actions}
      </Group>
    </Group>
  );
}

/** A figure beside a row's actions ("used 3 times"), hidden on phones. */
export function RowMeta({ children }: { children: ReactNode }) {
  return (
    <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} visibleFrom="sm">
      {children}
    </Text>
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

/**
 * An icon action of a row, with its name as tooltip and accessible label; a link when `to` is given.
 * `color` is gray unless given (null: the theme's primary colour).
 */
export function RowAction({
  label,
  icon,
  to,
  onClick,
  color = 'gray',
  testId,
  tooltip = true,
  ...props
}: {
  label: string;
  icon: ReactNode;
  to?: string;
  onClick?: () => void;
  color?: string | null;
  testId?: string;
  /** false: the label only for assistive technology, no tooltip. */
  tooltip?: boolean;
  disabled?: boolean;
  visibleFrom?: ActionIconProps['visibleFrom'];
}) {
  const common = {
    variant: 'subtle',
    color: color ?? undefined,
    'aria-label': label,
    'data-testid': testId,
    ...props,
  } as const;
  const button = to ? (
    <ActionIcon component={Link} to={to} {...common}>
      {icon}
    </ActionIcon>
  ) : (
    <ActionIcon onClick={onClick} {...common}>
      {icon}
    </ActionIcon>
  );
  return tooltip ? <Tooltip label={label}>{button}</Tooltip> : button;
}

/** The delete action of a row: a red bin that asks first (ConfirmAction) and runs `onConfirm`. */
export function DeleteRowAction({
  title,
  message,
  label,
  onConfirm,
  testId,
  iconSize = 16,
  tooltip,
}: {
  title: string;
  message: ReactNode;
  /** The bin's tooltip and the confirm button's text. */
  label: string;
  onConfirm: () => Promise<unknown>;
  testId?: string;
  iconSize?: number;
  tooltip?: boolean;
}) {
  return (
    <ConfirmAction title={title} message={message} confirmLabel={label} onConfirm={onConfirm}>
      {(open) => (
        <RowAction
          label={label}
          icon={<IconTrash size={iconSize} />}
          color="red"
          onClick={open}
          testId={testId}
          tooltip={tooltip}
        />
      )}
    </ConfirmAction>
  );
}
