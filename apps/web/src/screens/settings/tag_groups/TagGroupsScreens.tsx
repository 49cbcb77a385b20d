import {
  ActionIcon,
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import type { TagGroupRecord } from '../../../api/inboxTypes';
import {
  useCreateTagGroup,
  useDeleteTagGroup,
  useTagGroups,
  useTags,
  useUpdateTagGroup,
} from '../../../api/tags';
import { ConfirmAction } from '../../../components/ConfirmAction';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { useInboxT } from '../../../features/inbox/i18n';
import { useMessage } from '../../../i18n/useLocale';
import { RecordNotFound } from '../../../shell/RecordNotFound';
import { useManagedSpace } from '../tags/TagsScreens';

// Settings → tag groups (docs/product/screens-and-routes.md tag_groups, new, {id}): groups gather tags by meaning.

/** settings/tag_groups */
export function TagGroupsScreen() {
  const t = useInboxT();
  const groups = useTagGroups();
  const tags = useTags();
  const remove = useDeleteTagGroup();
  const { spaces, spaceId, setSpace } = useManagedSpace('tags.manage');
  const inSpace = (groups.data ?? []).filter((g) => g.space_id === spaceId);
  const count = (id: number) => (tags.data?.items ?? []).filter((tag) => tag.group_id === id).length;
  return (
    <Stack gap="lg">
      <PageHeader
        title={t('tags.groups')}
        actions={
          <Button
            component={Link}
            to={pathFor('settings-tag-groups-new', {}, { space_id: spaceId ?? undefined })}
            leftSection={<IconPlus size={16} />}
            data-testid="group-add"
          >
            {t('tags.groupAdd')}
          </Button>
        }
      />
      <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
      {groups.isPending ? (
        <Center py={40}>
          <Loader />
        </Center>
      ) : inSpace.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text ta="center" c="dimmed">
            {t('tags.groupsEmpty')}
          </Text>
        </Paper>
      ) : (
        <Paper withBorder radius="md" p={0}>
          {inSpace.map((group) => (
            <Group
              key={group.id}
              justify="space-between"
              p="sm"
              style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
              wrap="nowrap"
              data-testid="group-row"
            >
              <Group gap="sm" wrap="nowrap" miw={0}>
                <Anchor
                  component={Link}
                  to={pathFor('settings-tag-group', { id: group.id })}
                  fw={500}
                  fz="sm"
                  truncate="end"
                >
                  {group.name}
                </Anchor>
                <Text fz="xs" c="dimmed">
                  {t('tags.tagsInGroup', { count: count(group.id) })}
                </Text>
              </Group>
              <ConfirmAction
                title={t('tags.groupDeleteTitle', { name: group.name })}
                message={t('tags.groupDeleteText')}
                confirmLabel={t('common.delete')}
                onConfirm={() => remove.mutateAsync(group.id)}
              >
                {(open) => (
                  <Tooltip label={t('common.delete')}>
                    <ActionIcon variant="subtle" color="red" onClick={open} aria-label={t('common.delete')}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </ConfirmAction>
            </Group>
          ))}
        </Paper>
      )}
    </Stack>
  );
}

/** settings/tag_groups/new and settings/tag_groups/:id */
export function TagGroupScreen() {
  const t = useInboxT();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const groups = useTagGroups();
  const { spaceId } = useManagedSpace('tags.manage');
  if (groups.isPending) {
    return (
      <Center py={40}>
        <Loader />
      </Center>
    );
  }
  const group = id ? groups.data?.find((g) => g.id === id) : undefined;
  if (id && !group) return <RecordNotFound title={t('tags.groupNotFound')} />;
  return <GroupForm key={id ?? 'new'} group={group} spaceId={group?.space_id ?? spaceId ?? 0} />;
}

function GroupForm({ group, spaceId }: { group?: TagGroupRecord; spaceId: number }) {
  const t = useInboxT();
  const { t: tc } = useTranslation();
  const message = useMessage();
  const navigate = useNavigate();
  const create = useCreateTagGroup();
  const update = useUpdateTagGroup();
  const [name, setName] = useState(group?.name ?? '');
  const [error, setError] = useState<string | null>(null);
  return (
    <Stack gap="lg" maw={560}>
      <PageHeader title={group ? group.name : tc('titles.settings-tag-groups-new')} />
      <Paper withBorder radius="md" p="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!name.trim()) {
              setError(message('filter.name.required'));
              return;
            }
            const done = {
              onSuccess: () => {
                showSaved(t('tags.groupSaved'));
                navigate(pathFor('settings-tag-groups', {}, { space_id: spaceId }));
              },
              onError: showError,
            };
            if (group) update.mutate({ id: group.id, name: name.trim() }, done);
            else create.mutate({ name: name.trim(), space_id: spaceId }, done);
          }}
        >
          <Stack gap="sm">
            <TextInput
              label={t('tags.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={error}
              maxLength={100}
              data-testid="group-name"
            />
            <Group>
              <Button type="submit" loading={create.isPending || update.isPending} data-testid="group-save">
                {group ? t('common.save') : t('common.create')}
              </Button>
              <Button variant="default" component={Link} to={pathFor('settings-tag-groups')}>
                {t('common.cancel')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
