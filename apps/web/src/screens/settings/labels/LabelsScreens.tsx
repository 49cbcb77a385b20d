import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Center,
  ColorInput,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { pathFor } from '@otklik/shared/routes';
import { IconPlus, IconSearch, IconTrash, IconUsers } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useLabelAuthors } from '../../../api/authors';
import { ApiError } from '../../../api/client';
import type { LabelRecord } from '../../../api/inboxTypes';
import { useCreateLabel, useDeleteLabel, useLabels, useUpdateLabel } from '../../../api/tags';
import { ColorDot } from '../../../components/ColorDot';
import { ConfirmAction } from '../../../components/ConfirmAction';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { useInboxData } from '../../../features/inbox/hooks/useInboxData';
import { useInboxT } from '../../../features/inbox/i18n';
import { useMessage } from '../../../i18n/useLocale';
import { RecordNotFound } from '../../../shell/RecordNotFound';
import { AuthorList } from '../../authors/AuthorList';
import { useLiveAuthors } from '../../authors/useLiveAuthors';
import { SWATCHES, useManagedSpace } from '../tags/TagsScreens';

// Settings → author labels (docs/product/screens-and-routes.md labels, new, {id}, {id}/authors): marks on authors ("VIP").

/** settings/labels */
export function LabelsScreen() {
  const t = useInboxT();
  const labels = useLabels();
  const remove = useDeleteLabel();
  const { spaces, spaceId, setSpace } = useManagedSpace('labels.manage');
  if (spaces.length === 0) return <LabelsOff />;
  const inSpace = (labels.data ?? []).filter((l) => l.space_id === spaceId);
  return (
    <Stack gap="lg">
      <PageHeader
        title={t('labels.heading')}
        actions={
          <Button
            component={Link}
            to={pathFor('settings-labels-new', {}, { space_id: spaceId ?? undefined })}
            leftSection={<IconPlus size={16} />}
            data-testid="label-add"
          >
            {t('labels.add')}
          </Button>
        }
      />
      <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
      {labels.isPending ? (
        <Center py={40}>
          <Loader />
        </Center>
      ) : inSpace.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text ta="center" c="dimmed">
            {t('labels.empty')}
          </Text>
        </Paper>
      ) : (
        <Paper withBorder radius="md" p={0}>
          {inSpace.map((label) => (
            <Group
              key={label.id}
              justify="space-between"
              p="sm"
              wrap="nowrap"
              style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
              data-testid="label-row"
            >
              <Group gap="xs" wrap="nowrap" miw={0}>
                <ColorDot color={label.color} size={12} />
                <Anchor
                  component={Link}
                  to={pathFor('settings-label', { id: label.id })}
                  fz="sm"
                  fw={500}
                  truncate="end"
                >
                  {label.name}
                </Anchor>
              </Group>
              <Group gap={2} wrap="nowrap">
                <Tooltip label={t('labels.authors')}>
                  <ActionIcon
                    component={Link}
                    to={pathFor('settings-label-authors', { id: label.id })}
                    variant="subtle"
                    color="gray"
                    aria-label={t('labels.authors')}
                  >
                    <IconUsers size={16} />
                  </ActionIcon>
                </Tooltip>
                <ConfirmAction
                  title={t('labels.deleteTitle', { name: label.name })}
                  message={t('labels.deleteText')}
                  confirmLabel={t('common.delete')}
                  onConfirm={() => remove.mutateAsync(label.id)}
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
            </Group>
          ))}
        </Paper>
      )}
    </Stack>
  );
}

/** settings/labels/new and settings/labels/:id */
export function LabelScreen() {
  const t = useInboxT();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const labels = useLabels();
  const { spaces, spaceId } = useManagedSpace('labels.manage');
  // Labels off for the caller (tariff or role): say so, as the list does, not "not found".
  if (spaces.length === 0) return <LabelsOff />;
  if (labels.isPending) {
    return (
      <Center py={40}>
        <Loader />
      </Center>
    );
  }
  const label = id ? labels.data?.find((l) => l.id === id) : undefined;
  if (id && !label) return <RecordNotFound title={t('labels.notFound')} />;
  return <LabelForm key={id ?? 'new'} label={label} spaceId={label?.space_id ?? spaceId ?? 0} />;
}

function LabelForm({ label, spaceId }: { label?: LabelRecord; spaceId: number }) {
  const t = useInboxT();
  const { t: tc } = useTranslation();
  const message = useMessage();
  const navigate = useNavigate();
  const create = useCreateLabel();
  const update = useUpdateLabel();
  const [name, setName] = useState(label?.name ?? '');
  const [color, setColor] = useState(label?.color ?? '');
  const [error, setError] = useState<string | null>(null);
  return (
    <Stack gap="lg" maw={560}>
      <PageHeader title={label ? label.name : tc('titles.settings-labels-new')} />
      <Paper withBorder radius="md" p="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!name.trim()) {
              setError(message('filter.name.required'));
              return;
            }
            const body = { name: name.trim(), color: /^#[0-9a-fA-F]{6}$/.test(color) ? color : null };
            const done = {
              onSuccess: () => {
                showSaved(t('labels.saved'));
                navigate(pathFor('settings-labels', {}, { space_id: spaceId }));
              },
              onError: showError,
            };
            if (label) update.mutate({ id: label.id, ...body }, done);
            else create.mutate({ ...body, space_id: spaceId }, done);
          }}
        >
          <Stack gap="sm">
            <TextInput
              label={t('tags.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={error}
              maxLength={100}
              data-testid="label-name"
            />
            <ColorInput
              label={t('tags.color')}
              value={color}
              onChange={setColor}
              swatches={SWATCHES}
              format="hex"
            />
            <Group>
              <Button type="submit" loading={create.isPending || update.isPending} data-testid="label-save">
                {label ? t('common.save') : t('common.create')}
              </Button>
              <Button variant="default" component={Link} to={pathFor('settings-labels')}>
                {t('common.cancel')}
              </Button>
              {label && (
                <Button
                  variant="subtle"
                  component={Link}
                  to={pathFor('settings-label-authors', { id: label.id })}
                  leftSection={<IconUsers size={14} />}
                >
                  {t('labels.authors')}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}

/** The labels feature is off for the user (not in the tariff, or not theirs to manage): docs/product/screens-and-routes.md labels. */
function LabelsOff() {
  const t = useInboxT();
  return (
    <Stack gap="lg">
      <PageHeader title={t('labels.heading')} />
      <Alert color="gray" variant="light" data-testid="labels-off">
        {t('labels.off')}
      </Alert>
    </Stack>
  );
}

/** settings/labels/:id/authors — a live, virtualized, keyboard-navigable list of the label's authors. */
export function LabelAuthorsScreen() {
  const { spaces } = useManagedSpace('labels.manage');
  if (spaces.length === 0) return <LabelsOff />;
  return <LabelAuthors />;
}

function LabelAuthors() {
  const t = useInboxT();
  const id = Number(useParams().id);
  const labels = useLabels();
  const data = useInboxData();
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 300);
  const authors = useLabelAuthors(id, debounced);
  useLiveAuthors();
  const rows = useMemo(() => (authors.data?.pages ?? []).flatMap((p) => p.items), [authors.data]);
  if (labels.isPending) {
    return (
      <Center py={40}>
        <Loader />
      </Center>
    );
  }
  const label = labels.data?.find((l) => l.id === id);
  const missing = !label || (authors.error instanceof ApiError && authors.error.status === 404);
  if (missing) return <RecordNotFound title={t('labels.notFound')} />;
  return (
    <Stack gap="lg">
      <PageHeader
        title={
          <Group gap="xs" wrap="nowrap">
            <ColorDot color={label.color} size={14} />
            {label.name}
          </Group>
        }
        description={t('labels.authors')}
      />
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('authors.search')}
        aria-label={t('authors.search')}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        maw={360}
      />
      {authors.isPending ? (
        <Center py={40}>
          <Loader />
        </Center>
      ) : authors.error ? (
        <Alert color="red" variant="light" role="alert">
          <Group justify="space-between">
            <Text fz="sm">{authors.error.message}</Text>
            <Button size="compact-sm" variant="white" onClick={() => void authors.refetch()}>
              {t('delivery.retry')}
            </Button>
          </Group>
        </Alert>
      ) : rows.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text ta="center" c="dimmed">
            {t('labels.noAuthors')}
          </Text>
        </Paper>
      ) : (
        <AuthorList rows={rows} list={authors} label={label.name} data={data} />
      )}
    </Stack>
  );
}
