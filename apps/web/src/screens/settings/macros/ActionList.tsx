import { ActionIcon, Group, Paper, Select, Text, Tooltip } from '@mantine/core';
import type { MacroActionType, RuleActionType } from '@otklik/shared';
import { IconArrowDown, IconArrowUp, IconPlus, IconX } from '@tabler/icons-react';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

// The ordered action list that macros and auto-rules share: each row a card with its number, its type
// and Up / Down / Remove, the type's fields inside, and a picker that adds a blank action at the end.

type Row<A> = { key: number; action: A };
type ActionType = MacroActionType | RuleActionType;

/** The rows with stable keys (React keeps each card's fields while the list is reordered). */
export function useActionRows<A>(initial: readonly A[]): ActionRows<A> {
  const seq = useRef(0);
  const nextKey = () => {
    seq.current += 1;
    return seq.current;
  };
  const [rows, setRows] = useState<Row<A>[]>(() => initial.map((action) => ({ key: nextKey(), action })));
  return {
    rows,
    actions: rows.map((r) => r.action),
    setAction: (key: number, action: A) =>
      setRows((list) => list.map((r) => (r.key === key ? { key, action } : r))),
    move: (index: number, by: -1 | 1) =>
      setRows((list) => {
        const next = [...list];
        const [row] = next.splice(index, 1);
        next.splice(index + by, 0, row!);
        return next;
      }),
    remove: (key: number) => setRows((list) => list.filter((r) => r.key !== key)),
    add: (action: A) => setRows((list) => [...list, { key: nextKey(), action }]),
  };
}

export interface ActionRows<A> {
  rows: Row<A>[];
  actions: A[];
  setAction: (key: number, action: A) => void;
  move: (index: number, by: -1 | 1) => void;
  remove: (key: number) => void;
  add: (action: A) => void;
}

/**
 * The list's cards in order, each with Up / Down / Remove and the fields `fields` draws for its action
 * (`prefix` names the action's fields in the form's errors, `set` replaces the action).
 */
export function ActionCards<A extends { type: ActionType }>({
  list,
  ns,
  readOnly,
  testId,
  fields,
}: {
  list: ActionRows<A>;
  ns: 'settings.macros' | 'settings.rules';
  readOnly?: boolean;
  testId: string;
  fields: (action: A, prefix: string, set: (action: A) => void) => ReactNode;
}) {
  return list.rows.map((row, index) => (
    <ActionCard
      key={row.key}
      index={index}
      count={list.rows.length}
      type={row.action.type}
      ns={ns}
      readOnly={readOnly}
      testId={testId}
      onMove={(by) => list.move(index, by)}
      onRemove={() => list.remove(row.key)}
    >
      {fields(row.action, `actions.${index}`, (action) => list.setAction(row.key, action))}
    </ActionCard>
  ));
}

/** One action's card; `ns` is the i18n section of the Up / Down / Remove labels (settings.macros or .rules). */
export function ActionCard({
  index,
  count,
  type,
  ns,
  readOnly = false,
  testId,
  onMove,
  onRemove,
  children,
}: {
  index: number;
  count: number;
  type: ActionType;
  ns: 'settings.macros' | 'settings.rules';
  readOnly?: boolean;
  testId: string;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const button = (label: string, icon: ReactNode, onClick: () => void, disabled: boolean, color?: string) => (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color={color} disabled={disabled} onClick={onClick} aria-label={label}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
  return (
    <Paper withBorder radius="sm" p="sm" data-testid={testId}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text fz="sm" fw={500} pt={4}>
          {index + 1}. {t(`settings.macros.types.${type}`)}
        </Text>
        {!readOnly && (
          <Group gap={4} wrap="nowrap">
            {button(t(`${ns}.moveUp`), <IconArrowUp size={16} />, () => onMove(-1), index === 0)}
            {button(t(`${ns}.moveDown`), <IconArrowDown size={16} />, () => onMove(1), index === count - 1)}
            {button(t(`${ns}.remove`), <IconX size={16} />, onRemove, false, 'red')}
          </Group>
        )}
      </Group>
      {children}
    </Paper>
  );
}

/** The picker under the list that adds an action of the chosen type. */
export function AddActionSelect<T extends ActionType>({
  label,
  types,
  testId,
  onAdd,
}: {
  label: string;
  types: readonly T[];
  testId: string;
  onAdd: (type: T) => void;
}) {
  const { t } = useTranslation();
  return (
    <Select
      placeholder={label}
      aria-label={label}
      leftSection={<IconPlus size={16} />}
      data={types.map((type) => ({ value: type, label: t(`settings.macros.types.${type}`) }))}
      value={null}
      onChange={(type) => {
        if (type) onAdd(type as T);
      }}
      w={{ base: '100%', sm: 320 }}
      data-testid={testId}
    />
  );
}
