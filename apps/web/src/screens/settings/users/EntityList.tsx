import { ActionIcon, Button, Group, Modal, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { type Ability, spacesWhere } from '@otklik/shared';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConfigSpace } from '../../../api/types';
import { showError } from '../../../components/notify';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { DeleteRowAction } from '../../../features/settings-kit/SettingsList';
import { useLastDefined } from '../../../lib/useLastDefined';
import { useShell } from '../../../shell/ShellContext';

// A list of small records of a space (statuses, groups, departments, companies) with a modal editor.

export interface EditorProps<V> {
  values: V;
  onChange: (patch: Partial<V>) => void;
  spaceId: number;
  errors: Record<string, string>;
}

interface EntityListProps<T extends { id: number; space_id: number }, V> {
  items: T[];
  ability: Ability;
  addLabel: string;
  editTitle: string;
  emptyText: string;
  columns: Array<{ label: string; render: (item: T) => ReactNode; width?: number }>;
  /** Values of a new record / of an existing one. */
  blank: () => V;
  valuesOf: (item: T) => V;
  Editor: (props: EditorProps<V>) => ReactNode;
  onCreate: (values: V, spaceId: number) => Promise<unknown>;
  onUpdate: (item: T, values: V) => Promise<unknown>;
  onDelete: (item: T) => Promise<unknown>;
  deleteTitle: string;
  deleteText: (item: T) => string;
  testId: string;
}

type Editing<T> = { kind: 'new' } | { kind: 'edit'; item: T } | null;

export function EntityList<T extends { id: number; space_id: number }, V>(props: EntityListProps<T, V>) {
  const { t } = useTranslation();
  const { actor, config } = useShell();
  const spaces: ConfigSpace[] = config.spaces.filter((space) =>
    spacesWhere(actor, props.ability).some((s) => s.id === space.id),
  );
  const [editing, setEditing] = useState<Editing<T>>(null);
  const [values, setValues] = useState<V>(props.blank);
  const [spaceId, setSpaceId] = useState<number>(spaces[0]?.id ?? 0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const shown = useLastDefined(editing);

  const openNew = () => {
    setValues(props.blank());
    setErrors({});
    setEditing({ kind: 'new' });
  };
  const openEdit = (item: T) => {
    setValues(props.valuesOf(item));
    setErrors({});
    setSpaceId(item.space_id);
    setEditing({ kind: 'edit', item });
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!editing) return;
    setBusy(true);
    try {
      if (editing.kind === 'new') await props.onCreate(values, spaceId);
      else await props.onUpdate(editing.item, values);
      setEditing(null);
    } catch (error) {
      const fields = (error as { fields?: Record<string, string> }).fields;
      if (fields && Object.keys(fields).length > 0) setErrors(fields);
      else showError(error);
    } finally {
      setBusy(false);
    }
  };

  const bySpace = spaces
    .map((space) => ({ space, items: props.items.filter((item) => item.space_id === space.id) }))
    .filter((group) => spaces.length === 1 || group.items.length > 0);

  return (
    <Stack gap="md" data-testid={props.testId}>
      <Group justify="flex-end">
        <Button leftSection={<IconPlus size={16} />} onClick={openNew} data-testid={`${props.testId}-add`}>
          {props.addLabel}
        </Button>
      </Group>
      {props.items.length === 0 && (
        <Text c="dimmed" fz="sm">
          {props.emptyText}
        </Text>
      )}
      {props.items.length > 0 &&
        bySpace.map(({ space, items }) => (
          <Stack key={space.id} gap="xs">
            {spaces.length > 1 && (
              <Title order={3} fz={15}>
                {space.name}
              </Title>
            )}
            <Paper withBorder radius="md">
              <Table.ScrollContainer minWidth={480}>
                <Table verticalSpacing="sm" highlightOnHover>
                  <Table.Thead>
                    <Table.Tr>
                      {props.columns.map((column) => (
                        <Table.Th key={column.label} w={column.width}>
                          {column.label}
                        </Table.Th>
                      ))}
                      <Table.Th w={90} />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {items.map((item) => (
                      <Table.Tr key={item.id}>
                        {props.columns.map((column) => (
                          <Table.Td key={column.label}>{column.render(item)}</Table.Td>
                        ))}
                        <Table.Td>
                          <Group gap={4} wrap="nowrap" justify="flex-end">
                            <Tooltip label={t('common.edit')}>
                              <ActionIcon
                                variant="subtle"
                                aria-label={t('common.edit')}
                                onClick={() => openEdit(item)}
                              >
                                <IconPencil size={18} />
                              </ActionIcon>
                            </Tooltip>
                            <DeleteRowAction
                              title={props.deleteTitle}
                              message={props.deleteText(item)}
                              label={t('common.delete')}
                              onConfirm={() => props.onDelete(item)}
                              iconSize={18}
                            />
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Paper>
          </Stack>
        ))}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={shown?.kind === 'edit' ? props.editTitle : props.addLabel}
        centered
      >
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="md">
            {shown?.kind === 'new' && <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpaceId} />}
            {shown && (
              <props.Editor
                values={values}
                onChange={(patch) => setValues((current) => ({ ...current, ...patch }))}
                spaceId={shown.kind === 'edit' ? shown.item.space_id : spaceId}
                errors={errors}
              />
            )}
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={() => setEditing(null)}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={busy} data-testid="editor-save">
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
