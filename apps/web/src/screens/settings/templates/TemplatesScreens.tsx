import { Badge, Button, FileButton, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { filterTemplates, type TemplateDto } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconDownload, IconSearch, IconUpload } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { exportTemplates, useDeleteTemplate, useImportTemplates, useTemplates } from '../../../api/templates';
import { showError, showSaved } from '../../../components/notify';
import { useInboxT } from '../../../features/inbox/i18n';
import {
  AddButton,
  DeleteRowAction,
  ListHeader,
  ListRow,
  RowLink,
  SettingsList,
  SettingsOff,
} from '../../../features/settings-kit/SettingsList';
import { SpaceRecordScreen } from '../../../features/settings-kit/SpaceRecordScreen';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { TemplateForm } from './TemplateForm';

// Settings → reply templates (issue 16): the space's and the user's own templates, by folder, with
// search, CSV import/export; the form is TemplateForm.tsx.

/** settings/templates */
export function TemplatesScreen() {
  const t = useInboxT();
  const space = useManagedSpace('templates.use');
  const { spaces, spaceId } = space;
  const list = useTemplates(spaces.length > 0);
  const remove = useDeleteTemplate();
  const importCsv = useImportTemplates();
  const [q, setQ] = useState('');
  const [folder, setFolder] = useState<string | null>(null);
  const inSpace = useMemo(
    () => (list.data?.items ?? []).filter((x) => x.space_id === spaceId),
    [list.data, spaceId],
  );
  if (spaces.length === 0) return <TemplatesOff />;
  const folders = [...new Set(inSpace.map((x) => x.folder))].sort((a, b) => a.localeCompare(b));
  const shown = filterTemplates(
    inSpace.filter((x) => folder === null || x.folder === folder),
    q,
  ).sort((a, b) => a.folder.localeCompare(b.folder) || a.title.localeCompare(b.title));
  const canManage = (x: TemplateDto) =>
    x.user_id !== null || (list.data?.can_manage ?? []).includes(x.space_id);

  const download = async () => {
    if (spaceId === null) return;
    try {
      const blob = await exportTemplates(spaceId);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = 'templates.csv';
      a.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      showError(error);
    }
  };
  const upload = async (file: File | null) => {
    if (!file || spaceId === null) return;
    try {
      const result = await importCsv.mutateAsync({ space_id: spaceId, csv: await file.text() });
      showSaved(t('replyTemplates.imported', { count: result.items.length }));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Stack gap="lg">
      <ListHeader
        title={t('replyTemplates.heading')}
        space={space}
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={() => void download()}
            >
              {t('replyTemplates.exportCsv')}
            </Button>
            <FileButton onChange={(f) => void upload(f)} accept=".csv,text/csv">
              {(props) => (
                <Button
                  {...props}
                  variant="default"
                  loading={importCsv.isPending}
                  leftSection={<IconUpload size={16} />}
                >
                  {t('replyTemplates.importCsv')}
                </Button>
              )}
            </FileButton>
            <AddButton
              to={pathFor('settings-templates-new', {}, { space_id: spaceId ?? undefined })}
              label={t('replyTemplates.add')}
              testId="template-add"
            />
          </>
        }
      />
      <Group gap="sm" align="flex-end">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t('replyTemplates.search')}
          aria-label={t('replyTemplates.search')}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          w={{ base: '100%', sm: 320 }}
          data-testid="template-search"
        />
        {folders.length > 1 && (
          <Select
            aria-label={t('replyTemplates.folder')}
            placeholder={t('replyTemplates.allFolders')}
            data={folders.map((f) => ({ value: f, label: f || t('replyTemplates.noFolder') }))}
            value={folder}
            onChange={setFolder}
            clearable
            w={{ base: '100%', sm: 220 }}
          />
        )}
      </Group>
      <SettingsList
        query={list}
        rows={shown}
        empty={inSpace.length === 0 ? t('replyTemplates.empty') : t('replyTemplates.nothingFound')}
        emptyTestId="templates-empty"
        errorTitle={t('replyTemplates.loadError')}
        retryLabel={t('delivery.retry')}
      >
        {(rows) =>
          rows.map((x) => (
            <ListRow
              key={x.id}
              testId="template-row"
              actionsGap="xs"
              main={
                <Group gap="xs" wrap="nowrap" miw={0}>
                  {x.folder && (
                    <Badge variant="light" color="gray" size="sm" style={{ flexShrink: 0 }}>
                      {x.folder}
                    </Badge>
                  )}
                  <RowLink to={pathFor('settings-template', { id: x.id })}>{x.title}</RowLink>
                  {x.user_id !== null && (
                    <Badge variant="outline" size="sm" style={{ flexShrink: 0 }}>
                      {t('replyTemplates.personal')}
                    </Badge>
                  )}
                </Group>
              }
              subtitle={x.text}
              actions={
                <>
                  <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {t('replyTemplates.uses', { count: x.usage_count })}
                  </Text>
                  {canManage(x) && (
                    <DeleteRowAction
                      title={t('replyTemplates.deleteTitle', { name: x.title })}
                      message={t('replyTemplates.deleteText')}
                      label={t('common.delete')}
                      onConfirm={() => remove.mutateAsync(x.id)}
                    />
                  )}
                </>
              }
            />
          ))
        }
      </SettingsList>
    </Stack>
  );
}

/** settings/templates/new and settings/templates/:id */
export function TemplateScreen() {
  const t = useInboxT();
  return (
    <SpaceRecordScreen
      ability="templates.use"
      useList={useTemplates}
      off={<TemplatesOff />}
      notFoundTitle={t('replyTemplates.notFound')}
      errorTitle={t('replyTemplates.loadError')}
    >
      {(template, spaceId, key, canManageSpace) => (
        <TemplateForm key={key} template={template} spaceId={spaceId} canManageSpace={canManageSpace} />
      )}
    </SpaceRecordScreen>
  );
}

/** Templates off for the caller (the space flag, the tariff, or the role). */
function TemplatesOff() {
  const t = useInboxT();
  return (
    <SettingsOff title={t('replyTemplates.heading')} text={t('replyTemplates.off')} testId="templates-off" />
  );
}
