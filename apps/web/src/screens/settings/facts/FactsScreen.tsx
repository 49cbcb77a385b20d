import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { createFactBodySchema, FACT_KINDS, type FactDefinition, type FactKind } from '@otklik/shared';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateFact, useDeleteFact, useFacts, useUpdateFact } from '../../../api/facts';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { PageNotice } from '../../../components/PageNotice';
import { QueryState } from '../../../components/QueryState';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { DeleteRowAction } from '../../../features/settings-kit/SettingsList';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { useZodForm } from '../../../forms/useZodForm';

/** Create a field, or rename one / change a list's options (the kind is fixed once created). */
function FactForm({
  spaceId,
  fact,
  onDone,
}: {
  spaceId: number;
  fact: FactDefinition | null;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const create = useCreateFact();
  const update = useUpdateFact();
  const { form, handleSubmit, setServerErrors } = useZodForm(createFactBodySchema, {
    space_id: spaceId,
    name: fact?.name ?? '',
    kind: (fact?.kind ?? 'text') as FactKind,
    options: fact?.options ?? ([] as string[]),
  });
  const kind = form.values.kind;
  return (
    <form
      onSubmit={handleSubmit(async (values) => {
        try {
          if (fact) await update.mutateAsync({ id: fact.id, name: values.name, options: values.options });
          else await create.mutateAsync(values);
          showSaved(t('settings.common.saved'));
          onDone();
        } catch (error) {
          if (!setServerErrors(error)) showError(error);
        }
      })}
    >
      <Stack gap="md">
        <TextInput
          label={t('settings.facts.name')}
          placeholder={t('settings.facts.namePlaceholder')}
          data-autofocus
          {...form.getInputProps('name')}
          data-testid="fact-name"
        />
        <Select
          label={t('settings.facts.kind')}
          description={fact ? t('settings.facts.kindFixed') : undefined}
          data={FACT_KINDS.map((value) => ({ value, label: t(`settings.facts.kinds.${value}`) }))}
          allowDeselect={false}
          disabled={fact !== null}
          {...form.getInputProps('kind')}
          data-testid="fact-kind"
        />
        {kind === 'select' && (
          <TagsInput
            label={t('settings.facts.options')}
            description={t('settings.facts.optionsHint')}
            {...form.getInputProps('options')}
            data-testid="fact-options"
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending} data-testid="fact-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * /settings/custom/facts: custom fields of authors (order number, city, plan…) defined per space;
 * operators fill them in on the author page.
 */
export default function FactsScreen() {
  const { t } = useTranslation();
  const facts = useFacts();
  const remove = useDeleteFact();
  const { spaces, spaceId, setSpace } = useManagedSpace('settings.manage');
  const [editing, setEditing] = useState<FactDefinition | 'new' | null>(null);
  if (spaces.length === 0 || spaceId === null)
    return <PageNotice title={t('titles.settings-custom-facts')} text={t('settings.facts.noSpace')} />;
  return (
    <Stack gap="lg" maw={820}>
      <PageHeader
        title={t('titles.settings-custom-facts')}
        description={t('settings.facts.hint')}
        actions={
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setEditing('new')}
            data-testid="fact-add"
          >
            {t('settings.facts.add')}
          </Button>
        }
      />
      <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
      <QueryState queries={[facts]}>
        {() => {
          const inSpace = (facts.data ?? []).filter((f) => f.space_id === spaceId);
          if (inSpace.length === 0)
            return (
              <Paper withBorder radius="md" p="xl" data-testid="facts-empty">
                <Text ta="center" c="dimmed">
                  {t('settings.facts.empty')}
                </Text>
              </Paper>
            );
          return (
            <Paper withBorder radius="md" p={0}>
              {inSpace.map((fact) => (
                <Group
                  key={fact.id}
                  justify="space-between"
                  p="sm"
                  wrap="nowrap"
                  style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                  data-testid="fact-row"
                >
                  <Stack gap={2} miw={0}>
                    <Group gap="xs" wrap="nowrap">
                      <Text fz="sm" fw={500} truncate="end">
                        {fact.name}
                      </Text>
                      <Badge variant="light" color="gray" size="sm">
                        {t(`settings.facts.kinds.${fact.kind}`)}
                      </Badge>
                    </Group>
                    {fact.kind === 'select' && (
                      <Text fz="xs" c="dimmed" truncate="end">
                        {fact.options.join(' · ')}
                      </Text>
                    )}
                  </Stack>
                  <Group gap={2} wrap="nowrap">
                    <Tooltip label={t('common.edit')}>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        onClick={() => setEditing(fact)}
                        aria-label={t('common.edit')}
                      >
                        <IconPencil size={16} />
                      </ActionIcon>
                    </Tooltip>
                    <DeleteRowAction
                      title={t('settings.facts.deleteTitle', { name: fact.name })}
                      message={t('settings.facts.deleteText')}
                      label={t('common.delete')}
                      onConfirm={() => remove.mutateAsync(fact.id)}
                    />
                  </Group>
                </Group>
              ))}
            </Paper>
          );
        }}
      </QueryState>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('settings.facts.add') : t('settings.facts.edit')}
      >
        {editing !== null && (
          <FactForm
            key={editing === 'new' ? 'new' : editing.id}
            spaceId={spaceId}
            fact={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}
