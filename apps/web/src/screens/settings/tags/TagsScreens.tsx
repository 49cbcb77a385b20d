import { Badge, Button, ColorInput, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { tagFormSchema } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconPencil, IconSubtask } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { TagGroupRecord, TagRecord } from '../../../api/inboxTypes';
import { useCreateTag, useDeleteTag, useTags, useUpdateTag } from '../../../api/tags';
import { ColorDot } from '../../../components/ColorDot';
import { PageHeader } from '../../../components/PageHeader';
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
  EmptyCard,
  ListHeader,
  ListRow,
  RowAction,
  RowLink,
  SettingsList,
} from '../../../features/settings-kit/SettingsList';
import { colorOrNull, SWATCHES, useManagedSpace } from '../../../features/settings-kit/useManagedSpace';

// Settings → tags (docs/product/screens-and-routes.md tags, new, {id}, {id}/children): a tree of tags per space, with colours and
// groups. Tag names are unique among siblings and a tag can't move under its own child (server checks).
// Built on the settings kit (features/settings-kit).

/** Tags in tree order with their depth (children under parents, siblings by name). */
export function tagTree(tags: TagRecord[]): Array<{ tag: TagRecord; depth: number }> {
  const children = new Map<number | null, TagRecord[]>();
  const ids = new Set(tags.map((t) => t.id));
  for (const tag of tags) {
    const parent = tag.parent_id !== null && ids.has(tag.parent_id) ? tag.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), tag]);
  }
  const out: Array<{ tag: TagRecord; depth: number }> = [];
  const walk = (parent: number | null, depth: number) => {
    for (const tag of (children.get(parent) ?? []).sort((a, b) => a.name.localeCompare(b.name))) {
      out.push({ tag, depth });
      if (depth < 20) walk(tag.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** settings/tags */
export function TagsScreen() {
  const t = useInboxT();
  const tags = useTags();
  const space = useManagedSpace('tags.manage');
  const { spaceId } = space;
  const inSpace = (tags.data?.items ?? []).filter((tag) => tag.space_id === spaceId);
  const groups = new Map((tags.data?.tag_groups ?? []).map((g) => [g.id, g]));
  return (
    <Stack gap="lg">
      <ListHeader
        title={t('tags.heading')}
        space={space}
        actions={
          <>
            <Button component={Link} to={pathFor('settings-tag-groups')} variant="default">
              {t('tags.groups')}
            </Button>
            <AddButton
              to={pathFor('settings-tags-new', {}, { space_id: spaceId ?? undefined })}
              label={t('tags.add')}
              testId="tag-add"
            />
          </>
        }
      />
      <SettingsList query={tags} rows={inSpace} empty={t('tags.empty')} testId="tags-tree">
        {(rows) =>
          tagTree(rows).map(({ tag, depth }) => (
            <TagRow key={tag.id} tag={tag} depth={depth} groups={groups} />
          ))
        }
      </SettingsList>
    </Stack>
  );
}

/** One tag of the tree, indented by its depth, with its group's name (`groups` by id). */
function TagRow({
  tag,
  depth,
  groups,
}: {
  tag: TagRecord;
  depth: number;
  groups: Map<number, TagGroupRecord>;
}) {
  const t = useInboxT();
  const remove = useDeleteTag();
  const group = tag.group_id ? groups.get(tag.group_id) : undefined;
  return (
    <ListRow
      testId="tag-row"
      p={undefined}
      py="xs"
      pr="sm"
      pl={12 + Math.min(depth, 6) * 24}
      main={
        <Group gap="xs" wrap="nowrap" miw={0}>
          <ColorDot color={tag.color} size={12} />
          <RowLink to={pathFor('settings-tag', { id: tag.id })}>{tag.name}</RowLink>
          {group && (
            <Badge size="xs" variant="light" color="gray" style={{ textTransform: 'none' }}>
              {group.name}
            </Badge>
          )}
        </Group>
      }
      actions={
        <>
          <RowAction
            label={t('tags.addChild')}
            icon={<IconSubtask size={16} />}
            to={pathFor('settings-tags-new', {}, { parent_id: tag.id, space_id: tag.space_id })}
          />
          <RowAction
            label={t('tags.edit')}
            icon={<IconPencil size={16} />}
            to={pathFor('settings-tag', { id: tag.id })}
          />
          <DeleteRowAction
            title={t('tags.deleteTitle', { name: tag.name })}
            message={t('tags.deleteText')}
            label={t('tags.delete')}
            onConfirm={() => remove.mutateAsync(tag.id)}
          />
        </>
      }
    />
  );
}

/** settings/tags/new and settings/tags/:id */
export function TagScreen() {
  const t = useInboxT();
  const id = useRecordId();
  const tags = useTags();
  const { spaceId } = useManagedSpace('tags.manage');
  return (
    <RecordState
      query={tags}
      id={id}
      find={(id) => tags.data?.items.find((x) => x.id === id)}
      notFoundTitle={t('tags.notFound')}
    >
      {(tag) => (
        <TagForm
          key={id ?? 'new'}
          tag={tag}
          spaceId={tag?.space_id ?? spaceId ?? 0}
          tags={tags.data?.items ?? []}
          groups={tags.data?.tag_groups ?? []}
        />
      )}
    </RecordState>
  );
}

function TagForm({
  tag,
  spaceId,
  tags,
  groups,
}: {
  tag?: TagRecord;
  spaceId: number;
  tags: TagRecord[];
  groups: TagGroupRecord[];
}) {
  const t = useInboxT();
  const { t: tc } = useTranslation();
  const [search] = useSearchParams();
  const create = useCreateTag();
  const update = useUpdateTag();
  const { form, onSubmit, saving } = useSettingsForm(
    tagFormSchema,
    {
      name: tag?.name ?? '',
      color: tag?.color ?? '',
      parent_id: tag?.parent_id ? String(tag.parent_id) : search.get('parent_id'),
      group_id: tag?.group_id ? String(tag.group_id) : null,
    },
    { saved: t('tags.saved'), backTo: pathFor('settings-tags', {}, { space_id: spaceId }) },
  );
  const inSpace = tags.filter((x) => x.space_id === spaceId);
  // A tag can't go under itself or its descendants.
  const excluded = useMemo(() => {
    const out = new Set<number>();
    if (!tag) return out;
    const walk = (id: number) => {
      out.add(id);
      for (const child of inSpace.filter((x) => x.parent_id === id)) if (!out.has(child.id)) walk(child.id);
    };
    walk(tag.id);
    return out;
  }, [tag, inSpace]);
  const children = tag ? inSpace.filter((x) => x.parent_id === tag.id) : [];

  return (
    <SettingsFormPage
      title={tag ? tag.name : tc('titles.settings-tags-new')}
      isNew={!tag}
      maw={640}
      onSubmit={onSubmit(({ name, color, parent_id, group_id }) => {
        const body = {
          name,
          color: colorOrNull(color),
          parent_id: parent_id ? Number(parent_id) : null,
          group_id: group_id ? Number(group_id) : null,
        };
        return tag
          ? update.mutateAsync({ id: tag.id, ...body })
          : create.mutateAsync({ ...body, space_id: spaceId });
      })}
      saving={saving}
      saveTestId="tag-save"
      cancelTo={pathFor('settings-tags')}
      after={tag && <TagChildrenCard tag={tag} nested={children} />}
    >
      <TextInput
        label={t('tags.name')}
        {...form.getInputProps('name')}
        maxLength={100}
        data-testid="tag-name"
      />
      <ColorInput
        label={t('tags.color')}
        {...form.getInputProps('color')}
        swatches={SWATCHES}
        format="hex"
        data-testid="tag-color"
      />
      <Select
        label={t('tags.parent')}
        placeholder={t('tags.noParent')}
        data={tagTree(inSpace.filter((x) => !excluded.has(x.id))).map(({ tag: x, depth }) => ({
          value: String(x.id),
          label: `${'— '.repeat(depth)}${x.name}`,
        }))}
        {...form.getInputProps('parent_id')}
        clearable
        searchable
      />
      <Select
        label={t('tags.group')}
        placeholder={t('tags.noGroup')}
        data={groups
          .filter((g) => g.space_id === spaceId)
          .map((g) => ({ value: String(g.id), label: g.name }))}
        {...form.getInputProps('group_id')}
        clearable
      />
    </SettingsFormPage>
  );
}

/** Under a tag's form: its nested tags as links, and adding one. */
function TagChildrenCard({ tag, nested }: { tag: TagRecord; nested: TagRecord[] }) {
  const t = useInboxT();
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="xs">
        <Text fw={600} fz="sm">
          {t('tags.children')}
        </Text>
        <Button
          size="xs"
          variant="light"
          component={Link}
          to={pathFor('settings-tag-children', { id: tag.id })}
        >
          {t('tags.addChild')}
        </Button>
      </Group>
      {nested.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {t('tags.noChildren')}
        </Text>
      ) : (
        <Group gap={6}>
          {nested.map((child) => (
            <Badge
              key={child.id}
              component={Link}
              to={pathFor('settings-tag', { id: child.id })}
              variant="dot"
              color={child.color ?? 'gray'}
              style={{ textTransform: 'none', cursor: 'pointer' }}
            >
              {child.name}
            </Badge>
          ))}
        </Group>
      )}
    </Paper>
  );
}

/** settings/tags/:id/children — the nested tags of one tag, and adding one. */
export function TagChildrenScreen() {
  const t = useInboxT();
  const id = useRecordId();
  const tags = useTags();
  return (
    <RecordState
      query={tags}
      id={id}
      find={(id) => tags.data?.items.find((x) => x.id === id)}
      notFoundTitle={t('tags.notFound')}
    >
      {(tag) =>
        tag && <TagChildren tag={tag} tags={tags.data?.items ?? []} groupList={tags.data?.tag_groups ?? []} />
      }
    </RecordState>
  );
}

function TagChildren({
  tag,
  tags,
  groupList,
}: {
  tag: TagRecord;
  tags: TagRecord[];
  groupList: TagGroupRecord[];
}) {
  const t = useInboxT();
  const inSpace = tags.filter((x) => x.space_id === tag.space_id);
  const subtree = tagTree(inSpace.filter((x) => x.id !== tag.id)).filter(({ tag: x }) => {
    let parent = x.parent_id;
    for (let i = 0; i < 20 && parent !== null; i++) {
      if (parent === tag.id) return true;
      parent = inSpace.find((y) => y.id === parent)?.parent_id ?? null;
    }
    return false;
  });
  const groups = new Map(groupList.map((g) => [g.id, g]));
  return (
    <Stack gap="lg">
      <PageHeader
        title={
          <Group gap="xs">
            <ColorDot color={tag.color} size={14} />
            {tag.name}
          </Group>
        }
        description={t('tags.children')}
        actions={
          <AddButton
            to={pathFor('settings-tags-new', {}, { parent_id: tag.id, space_id: tag.space_id })}
            label={t('tags.addChild')}
          />
        }
      />
      {subtree.length === 0 ? (
        <EmptyCard>{t('tags.noChildren')}</EmptyCard>
      ) : (
        <Paper withBorder radius="md" p={0}>
          {subtree.map(({ tag: x, depth }) => (
            <TagRow key={x.id} tag={x} depth={depth} groups={groups} />
          ))}
        </Paper>
      )}
    </Stack>
  );
}
