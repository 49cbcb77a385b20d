import { Group, Stack, Text, TextInput } from '@mantine/core';
import { settingsNameFormSchema } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useTranslation } from 'react-i18next';
import type { TagGroupRecord } from '../../../api/inboxTypes';
import {
  useCreateTagGroup,
  useDeleteTagGroup,
  useTagGroups,
  useTags,
  useUpdateTagGroup,
} from '../../../api/tags';
import { useInboxT } from '../../../features/inbox/i18n';
import {
  RecordState,
  SettingsFormPage,
  useRecordId,
  useSettingsForm,
} from '../../../features/settings-kit/SettingsForm';
import {
  AddButton,
  DeleteRowAction,
  ListHeader,
  ListRow,
  RowLink,
  SettingsList,
} from '../../../features/settings-kit/SettingsList';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';

// Settings → tag groups (docs/product/screens-and-routes.md tag_groups, new, {id}): groups gather tags by
// meaning. Built on the settings kit (features/settings-kit).

/** settings/tag_groups */
export function TagGroupsScreen() {
  const t = useInboxT();
  const groups = useTagGroups();
  const tags = useTags();
  const remove = useDeleteTagGroup();
  const space = useManagedSpace('tags.manage');
  const { spaceId } = space;
  const inSpace = (groups.data ?? []).filter((g) => g.space_id === spaceId);
  const count = (id: number) => (tags.data?.items ?? []).filter((tag) => tag.group_id === id).length;
  return (
    <Stack gap="lg">
      <ListHeader
        title={t('tags.groups')}
        space={space}
        actions={
          <AddButton
            to={pathFor('settings-tag-groups-new', {}, { space_id: spaceId ?? undefined })}
            label={t('tags.groupAdd')}
            testId="group-add"
          />
        }
      />
      <SettingsList query={groups} rows={inSpace} empty={t('tags.groupsEmpty')}>
        {(rows) =>
          rows.map((group) => (
            <ListRow
              key={group.id}
              testId="group-row"
              main={
                <Group gap="sm" wrap="nowrap" miw={0}>
                  <RowLink to={pathFor('settings-tag-group', { id: group.id })}>{group.name}</RowLink>
                  <Text fz="xs" c="dimmed">
                    {t('tags.tagsInGroup', { count: count(group.id) })}
                  </Text>
                </Group>
              }
              actions={
                <DeleteRowAction
                  title={t('tags.groupDeleteTitle', { name: group.name })}
                  message={t('tags.groupDeleteText')}
                  label={t('common.delete')}
                  onConfirm={() => remove.mutateAsync(group.id)}
                />
              }
            />
          ))
        }
      </SettingsList>
    </Stack>
  );
}

/** settings/tag_groups/new and settings/tag_groups/:id */
export function TagGroupScreen() {
  const t = useInboxT();
  const id = useRecordId();
  const groups = useTagGroups();
  const { spaceId } = useManagedSpace('tags.manage');
  return (
    <RecordState
      query={groups}
      id={id}
      find={(id) => groups.data?.find((g) => g.id === id)}
      notFoundTitle={t('tags.groupNotFound')}
    >
      {(group) => <GroupForm key={id ?? 'new'} group={group} spaceId={group?.space_id ?? spaceId ?? 0} />}
    </RecordState>
  );
}

function GroupForm({ group, spaceId }: { group?: TagGroupRecord; spaceId: number }) {
  const t = useInboxT();
  const { t: tc } = useTranslation();
  const create = useCreateTagGroup();
  const update = useUpdateTagGroup();
  const { form, onSubmit, saving } = useSettingsForm(
    settingsNameFormSchema,
    { name: group?.name ?? '' },
    { saved: t('tags.groupSaved'), backTo: pathFor('settings-tag-groups', {}, { space_id: spaceId }) },
  );
  return (
    <SettingsFormPage
      title={group ? group.name : tc('titles.settings-tag-groups-new')}
      isNew={!group}
      onSubmit={onSubmit(({ name }) =>
        group ? update.mutateAsync({ id: group.id, name }) : create.mutateAsync({ name, space_id: spaceId }),
      )}
      saving={saving}
      saveTestId="group-save"
      cancelTo={pathFor('settings-tag-groups')}
    >
      <TextInput
        label={t('tags.name')}
        {...form.getInputProps('name')}
        maxLength={100}
        data-testid="group-name"
      />
    </SettingsFormPage>
  );
}
