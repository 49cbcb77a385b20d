import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Center,
  ColorInput,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { type Ability, can } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconPencil, IconPlus, IconSubtask, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../../api/client';
import type { TagGroupRecord, TagRecord } from '../../../api/inboxTypes';
import { useCreateTag, useDeleteTag, useTags, useUpdateTag } from '../../../api/tags';
import { ColorDot } from '../../../components/ColorDot';
import { ConfirmAction } from '../../../components/ConfirmAction';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { useInboxT } from '../../../features/inbox/i18n';
import { useMessage } from '../../../i18n/useLocale';
import { RecordNotFound } from '../../../shell/RecordNotFound';
import { useShell } from '../../../shell/ShellContext';

// Settings → tags (docs/product/screens-and-routes.md tags, new, {id}, {id}/children): a tree of tags per space, with colours and
// groups. Tag names are unique among siblings and a tag can't move under its own child (server checks).

export const SWATCHES = [
  '#fa5252',
  '#e64980',
  '#be4bdb',
  '#7950f2',
  '#4c6ef5',
  '#228be6',
  '#15aabf',
  '#12b886',
  '#40c057',
  '#82c91e',
  '#fab005',
  '#fd7e14',
  '#868e96',
];

/** The spaces where the user manages tags (docs/product/roles.md: administrators), with the one chosen. */
export function useManagedSpace(ability: Ability) {
  const { config, actor } = useShell();
  const [params, setParams] = useSearchParams();
  const spaces = config.spaces.filter((space) => can(actor, ability, space.id));
  const requested = Number(params.get('space_id'));
  const spaceId = spaces.find((s) => s.id === requested)?.id ?? spaces[0]?.id ?? null;
  const setSpace = (id: number) => {
    const next = new URLSearchParams(params);
    next.set('space_id', String(id));
    setParams(next, { replace: true });
  };
  return { spaces, spaceId, setSpace };
}

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
  const { spaces, spaceId, setSpace } = useManagedSpace('tags.manage');
  const inSpace = (tags.data?.items ?? []).filter((tag) => tag.space_id === spaceId);
  const groups = new Map((tags.data?.tag_groups ?? []).map((g) => [g.id, g]));
  return (
    <Stack gap="lg">
      <PageHeader
        title={t('tags.heading')}
        actions={
          <>
            <Button component={Link} to={pathFor('settings-tag-groups')} variant="default">
              {t('tags.groups')}
            </Button>
            <Button
              component={Link}
              to={pathFor('settings-tags-new', {}, { space_id: spaceId ?? undefined })}
              leftSection={<IconPlus size={16} />}
              data-testid="tag-add"
            >
              {t('tags.add')}
            </Button>
          </>
        }
      />
      <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
      {tags.isPending ? (
        <Center py={40}>
          <Loader />
        </Center>
      ) : inSpace.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text ta="center" c="dimmed">
            {t('tags.empty')}
          </Text>
        </Paper>
      ) : (
        <Paper withBorder radius="md" p={0} data-testid="tags-tree">
          {tagTree(inSpace).map(({ tag, depth }) => (
            <TagRow
              key={tag.id}
              tag={tag}
              depth={depth}
              group={tag.group_id ? groups.get(tag.group_id) : undefined}
            />
          ))}
        </Paper>
      )}
    </Stack>
  );
}

function TagRow({ tag, depth, group }: { tag: TagRecord; depth: number; group?: TagGroupRecord }) {
  const t = useInboxT();
  const remove = useDeleteTag();
  return (
    <Group
      justify="space-between"
      wrap="nowrap"
      py="xs"
      pr="sm"
      pl={12 + Math.min(depth, 6) * 24}
      style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      data-testid="tag-row"
    >
      <Group gap="xs" wrap="nowrap" miw={0}>
        <ColorDot color={tag.color} size={12} />
        <Anchor component={Link} to={pathFor('settings-tag', { id: tag.id })} fz="sm" fw={500} truncate="end">
          {tag.name}
        </Anchor>
        {group && (
          <Badge size="xs" variant="light" color="gray" style={{ textTransform: 'none' }}>
            {group.name}
          </Badge>
        )}
      </Group>
      <Group gap={2} wrap="nowrap">
        <Tooltip label={t('tags.addChild')}>
          <ActionIcon
            component={Link}
            to={pathFor('settings-tags-new', {}, { parent_id: tag.id, space_id: tag.space_id })}
            variant="subtle"
            color="gray"
            aria-label={t('tags.addChild')}
          >
            <IconSubtask size={16} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('tags.edit')}>
          <ActionIcon
            component={Link}
            to={pathFor('settings-tag', { id: tag.id })}
            variant="subtle"
            color="gray"
            aria-label={t('tags.edit')}
          >
            <IconPencil size={16} />
          </ActionIcon>
        </Tooltip>
        <ConfirmAction
          title={t('tags.deleteTitle', { name: tag.name })}
          message={t('tags.deleteText')}
          confirmLabel={t('tags.delete')}
          onConfirm={() => remove.mutateAsync(tag.id)}
        >
          {(open) => (
            <Tooltip label={t('tags.delete')}>
              <ActionIcon variant="subtle" color="red" onClick={open} aria-label={t('tags.delete')}>
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </ConfirmAction>
      </Group>
    </Group>
  );
}

/** settings/tags/new and settings/tags/:id */
export function TagScreen() {
  const t = useInboxT();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const tags = useTags();
  const { spaceId } = useManagedSpace('tags.manage');
  if (tags.isPending) {
    return (
      <Center py={40}>
        <Loader />
      </Center>
    );
  }
  const tag = id ? tags.data?.items.find((x) => x.id === id) : undefined;
  if (id && !tag) return <RecordNotFound title={t('tags.notFound')} />;
  return (
    <TagForm
      key={id ?? 'new'}
      tag={tag}
      spaceId={tag?.space_id ?? spaceId ?? 0}
      tags={tags.data?.items ?? []}
      groups={tags.data?.tag_groups ?? []}
    />
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
  const message = useMessage();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const create = useCreateTag();
  const update = useUpdateTag();
  const [name, setName] = useState(tag?.name ?? '');
  const [color, setColor] = useState(tag?.color ?? '');
  const [parentId, setParentId] = useState<string | null>(
    tag?.parent_id ? String(tag.parent_id) : search.get('parent_id'),
  );
  const [groupId, setGroupId] = useState<string | null>(tag?.group_id ? String(tag.group_id) : null);
  const [error, setError] = useState<string | null>(null);
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

  const submit = () => {
    if (!name.trim()) {
      setError(message('filter.name.required'));
      return;
    }
    setError(null);
    const body = {
      name: name.trim(),
      color: /^#[0-9a-fA-F]{6}$/.test(color) ? color : null,
      parent_id: parentId ? Number(parentId) : null,
      group_id: groupId ? Number(groupId) : null,
    };
    const done = {
      onSuccess: () => {
        showSaved(t('tags.saved'));
        navigate(pathFor('settings-tags', {}, { space_id: spaceId }));
      },
      // The server's own words (translated): a name problem under the name field, the rest as a notice.
      onError: (failure: unknown) => {
        const nameError = failure instanceof ApiError ? failure.fields.name : undefined;
        if (nameError) setError(nameError);
        else showError(failure);
      },
    };
    if (tag) update.mutate({ id: tag.id, ...body }, done);
    else create.mutate({ ...body, space_id: spaceId }, done);
  };

  return (
    <Stack gap="lg" maw={640}>
      <PageHeader title={tag ? tag.name : tc('titles.settings-tags-new')} />
      <Paper withBorder radius="md" p="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Stack gap="sm">
            <TextInput
              label={t('tags.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={error}
              maxLength={100}
              data-testid="tag-name"
            />
            <ColorInput
              label={t('tags.color')}
              value={color}
              onChange={setColor}
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
              value={parentId}
              onChange={setParentId}
              clearable
              searchable
            />
            <Select
              label={t('tags.group')}
              placeholder={t('tags.noGroup')}
              data={groups
                .filter((g) => g.space_id === spaceId)
                .map((g) => ({ value: String(g.id), label: g.name }))}
              value={groupId}
              onChange={setGroupId}
              clearable
            />
            <Group>
              <Button type="submit" loading={create.isPending || update.isPending} data-testid="tag-save">
                {tag ? t('common.save') : t('common.create')}
              </Button>
              <Button variant="default" component={Link} to={pathFor('settings-tags')}>
                {t('common.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {tag && (
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
          {children.length === 0 ? (
            <Text fz="sm" c="dimmed">
              {t('tags.noChildren')}
            </Text>
          ) : (
            <Group gap={6}>
              {children.map((child) => (
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
      )}
    </Stack>
  );
}

/** settings/tags/:id/children — the nested tags of one tag, and adding one. */
export function TagChildrenScreen() {
  const t = useInboxT();
  const id = Number(useParams().id);
  const tags = useTags();
  if (tags.isPending) {
    return (
      <Center py={40}>
        <Loader />
      </Center>
    );
  }
  const tag = tags.data?.items.find((x) => x.id === id);
  if (!tag) return <RecordNotFound title={t('tags.notFound')} />;
  const inSpace = (tags.data?.items ?? []).filter((x) => x.space_id === tag.space_id);
  const subtree = tagTree(inSpace.filter((x) => x.id !== tag.id)).filter(({ tag: x }) => {
    let parent = x.parent_id;
    for (let i = 0; i < 20 && parent !== null; i++) {
      if (parent === tag.id) return true;
      parent = inSpace.find((y) => y.id === parent)?.parent_id ?? null;
    }
    return false;
  });
  const groups = new Map((tags.data?.tag_groups ?? []).map((g) => [g.id, g]));
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
          <Button
            component={Link}
            to={pathFor('settings-tags-new', {}, { parent_id: tag.id, space_id: tag.space_id })}
            leftSection={<IconPlus size={16} />}
          >
            {t('tags.addChild')}
          </Button>
        }
      />
      {subtree.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text ta="center" c="dimmed">
            {t('tags.noChildren')}
          </Text>
        </Paper>
      ) : (
        <Paper withBorder radius="md" p={0}>
          {subtree.map(({ tag: x, depth }) => (
            <TagRow
              key={x.id}
              tag={x}
              depth={depth}
              group={x.group_id ? groups.get(x.group_id) : undefined}
            />
          ))}
        </Paper>
      )}
    </Stack>
  );
}
