import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  FileButton,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { filterTemplates, type TemplateDto } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconDownload, IconPlus, IconSearch, IconTrash, IconUpload } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { exportTemplates, useDeleteTemplate, useImportTemplates, useTemplates } from '../../../api/templates';
import { ConfirmAction } from '../../../components/ConfirmAction';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { useInboxT } from '../../../features/inbox/i18n';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { RecordNotFound } from '../../../shell/RecordNotFound';
import { TemplateForm } from './TemplateForm';

// Settings → reply templates (issue 16): the space's and the user's own templates, by folder, with
// search, CSV import/export; the form is TemplateForm.tsx.

/** settings/templates */
export function TemplatesScreen() {
  const t = useInboxT();
  const { spaces, spaceId, setSpace } = useManagedSpace('templates.use');
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
      <PageHeader
        title={t('replyTemplates.heading')}
        actions={
          <Group gap="xs">
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
            <Button
              component={Link}
              to={pathFor('settings-templates-new', {}, { space_id: spaceId ?? undefined })}
              leftSection={<IconPlus size={16} />}
              data-testid="template-add"
            >
              {t('replyTemplates.add')}
            </Button>
          </Group>
        }
      />
      <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
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
      {list.isPending ? (
        <Center py={40}>
          <Loader />
        </Center>
      ) : list.error ? (
        <Alert color="red" variant="light" role="alert" title={t('replyTemplates.loadError')}>
          <Group justify="space-between">
            <Text fz="sm">{list.error.message}</Text>
            <Button size="compact-sm" variant="white" onClick={() => void list.refetch()}>
              {t('delivery.retry')}
            </Button>
          </Group>
        </Alert>
      ) : shown.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text ta="center" c="dimmed" data-testid="templates-empty">
            {inSpace.length === 0 ? t('replyTemplates.empty') : t('replyTemplates.nothingFound')}
          </Text>
        </Paper>
      ) : (
        <Paper withBorder radius="md" p={0}>
          {shown.map((x) => (
            <Group
              key={x.id}
              justify="space-between"
              p="sm"
              wrap="nowrap"
              style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
              data-testid="template-row"
            >
              <Stack gap={2} miw={0}>
                <Group gap="xs" wrap="nowrap" miw={0}>
                  {x.folder && (
                    <Badge variant="light" color="gray" size="sm" style={{ flexShrink: 0 }}>
                      {x.folder}
                    </Badge>
                  )}
                  <Anchor
                    component={Link}
                    to={pathFor('settings-template', { id: x.id })}
                    fz="sm"
                    fw={500}
                    truncate="end"
                  >
                    {x.title}
                  </Anchor>
                  {x.user_id !== null && (
                    <Badge variant="outline" size="sm" style={{ flexShrink: 0 }}>
                      {t('replyTemplates.personal')}
                    </Badge>
                  )}
                </Group>
                <Text fz="xs" c="dimmed" truncate="end">
                  {x.text}
                </Text>
              </Stack>
              <Group gap="xs" wrap="nowrap">
                <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {t('replyTemplates.uses', { count: x.usage_count })}
                </Text>
                {canManage(x) && (
                  <ConfirmAction
                    title={t('replyTemplates.deleteTitle', { name: x.title })}
                    message={t('replyTemplates.deleteText')}
                    confirmLabel={t('common.delete')}
                    onConfirm={() => remove.mutateAsync(x.id)}
                  >
                    {(open) => (
                      <Tooltip label={t('common.delete')}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          onClick={open}
                          aria-label={t('common.delete')}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </ConfirmAction>
                )}
              </Group>
            </Group>
          ))}
        </Paper>
      )}
    </Stack>
  );
}

/** settings/templates/new and settings/templates/:id */
export function TemplateScreen() {
  const t = useInboxT();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const { spaces, spaceId } = useManagedSpace('templates.use');
  const list = useTemplates(spaces.length > 0);
  if (spaces.length === 0) return <TemplatesOff />;
  if (list.isPending) {
    return (
      <Center py={40}>
        <Loader />
      </Center>
    );
  }
  if (list.error) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('replyTemplates.loadError')}>
        {list.error.message}
      </Alert>
    );
  }
  const template = id ? list.data?.items.find((x) => x.id === id) : undefined;
  if (id && !template) return <RecordNotFound title={t('replyTemplates.notFound')} />;
  const space = template?.space_id ?? spaceId ?? 0;
  return (
    <TemplateForm
      key={id ?? 'new'}
      template={template}
      spaceId={space}
      canManageSpace={(list.data?.can_manage ?? []).includes(space)}
    />
  );
}

/** Templates off for the caller (the space flag, the tariff, or the role). */
function TemplatesOff() {
  const t = useInboxT();
  return (
    <Stack gap="lg">
      <PageHeader title={t('replyTemplates.heading')} />
      <Alert color="gray" variant="light" data-testid="templates-off">
        {t('replyTemplates.off')}
      </Alert>
    </Stack>
  );
}
