import { Button, ColorInput, Group, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { labelFormSchema } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconSearch, IconUsers } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useLabelAuthors } from '../../../api/authors';
import { ApiError } from '../../../api/client';
import type { LabelRecord } from '../../../api/inboxTypes';
import { useCreateLabel, useDeleteLabel, useLabels, useUpdateLabel } from '../../../api/tags';
import { ColorDot } from '../../../components/ColorDot';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { useInboxData } from '../../../features/inbox/hooks/useInboxData';
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
  SettingsOff,
} from '../../../features/settings-kit/SettingsList';
import { colorOrNull, SWATCHES, useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { RecordLoading, RecordNotFound } from '../../../shell/RecordNotFound';
import { AuthorList } from '../../authors/AuthorList';
import { useLiveAuthors } from '../../authors/useLiveAuthors';

// Settings → author labels (docs/product/screens-and-routes.md labels, new, {id}, {id}/authors): marks on
// authors ("VIP"). Built on the settings kit (features/settings-kit).

/** settings/labels */
export function LabelsScreen() {
  const t = useInboxT();
  const labels = useLabels();
  const remove = useDeleteLabel();
  const space = useManagedSpace('labels.manage');
  const { spaces, spaceId } = space;
  if (spaces.length === 0) return <LabelsOff />;
  const inSpace = (labels.data ?? []).filter((l) => l.space_id === spaceId);
  return (
    <Stack gap="lg">
      <ListHeader
        title={t('labels.heading')}
        space={space}
        actions={
          <AddButton
            to={pathFor('settings-labels-new', {}, { space_id: spaceId ?? undefined })}
            label={t('labels.add')}
            testId="label-add"
          />
        }
      />
      <SettingsList query={labels} rows={inSpace} empty={t('labels.empty')}>
        {(rows) =>
          rows.map((label) => (
            <ListRow
              key={label.id}
              testId="label-row"
              main={
                <Group gap="xs" wrap="nowrap" miw={0}>
                  <ColorDot color={label.color} size={12} />
                  <RowLink to={pathFor('settings-label', { id: label.id })}>{label.name}</RowLink>
                </Group>
              }
              actions={
                <>
                  <RowAction
                    label={t('labels.authors')}
                    icon={<IconUsers size={16} />}
                    to={pathFor('settings-label-authors', { id: label.id })}
                  />
                  <DeleteRowAction
                    title={t('labels.deleteTitle', { name: label.name })}
                    message={t('labels.deleteText')}
                    label={t('common.delete')}
                    onConfirm={() => remove.mutateAsync(label.id)}
                  />
                </>
              }
            />
          ))
        }
      </SettingsList>
    </Stack>
  );
}

/** settings/labels/new and settings/labels/:id */
export function LabelScreen() {
  const t = useInboxT();
  const id = useRecordId();
  const labels = useLabels();
  const { spaces, spaceId } = useManagedSpace('labels.manage');
  // Labels off for the caller (tariff or role): say so, as the list does, not "not found".
  if (spaces.length === 0) return <LabelsOff />;
  return (
    <RecordState
      query={labels}
      id={id}
      find={(id) => labels.data?.find((l) => l.id === id)}
      notFoundTitle={t('labels.notFound')}
    >
      {(label) => <LabelForm key={id ?? 'new'} label={label} spaceId={label?.space_id ?? spaceId ?? 0} />}
    </RecordState>
  );
}

function LabelForm({ label, spaceId }: { label?: LabelRecord; spaceId: number }) {
  const t = useInboxT();
  const { t: tc } = useTranslation();
  const create = useCreateLabel();
  const update = useUpdateLabel();
  const { form, onSubmit, saving } = useSettingsForm(
    labelFormSchema,
    { name: label?.name ?? '', color: label?.color ?? '' },
    { saved: t('labels.saved'), backTo: pathFor('settings-labels', {}, { space_id: spaceId }) },
  );
  return (
    <SettingsFormPage
      title={label ? label.name : tc('titles.settings-labels-new')}
      isNew={!label}
      onSubmit={onSubmit(({ name, color }) => {
        const body = { name, color: colorOrNull(color) };
        return label
          ? update.mutateAsync({ id: label.id, ...body })
          : create.mutateAsync({ ...body, space_id: spaceId });
      })}
      saving={saving}
      saveTestId="label-save"
      cancelTo={pathFor('settings-labels')}
      buttons={
        label && (
          <Button
            variant="subtle"
            component={Link}
            to={pathFor('settings-label-authors', { id: label.id })}
            leftSection={<IconUsers size={14} />}
          >
            {t('labels.authors')}
          </Button>
        )
      }
    >
      <TextInput
        label={t('tags.name')}
        {...form.getInputProps('name')}
        maxLength={100}
        data-testid="label-name"
      />
      <ColorInput label={t('tags.color')} {...form.getInputProps('color')} swatches={SWATCHES} format="hex" />
    </SettingsFormPage>
  );
}

/** The labels feature is off for the user (not in the tariff, or not theirs to manage): docs/product/screens-and-routes.md labels. */
function LabelsOff() {
  const t = useInboxT();
  return <SettingsOff title={t('labels.heading')} text={t('labels.off')} testId="labels-off" />;
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
  if (labels.isPending || labels.error)
    return <RecordLoading query={labels} notFoundTitle={t('labels.notFound')} />;
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
      <QueryState queries={[authors]} retryLabel={t('delivery.retry')}>
        {() =>
          rows.length === 0 ? (
            <EmptyCard>{t('labels.noAuthors')}</EmptyCard>
          ) : (
            <AuthorList rows={rows} list={authors} label={label.name} data={data} />
          )
        }
      </QueryState>
    </Stack>
  );
}
