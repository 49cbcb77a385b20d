import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
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
import { filterMacros, type MacroDto } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useDeleteMacro, useMacros } from '../../../api/macros';
import { ConfirmAction } from '../../../components/ConfirmAction';
import { PageHeader } from '../../../components/PageHeader';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { RecordNotFound } from '../../../shell/RecordNotFound';
import { MacroForm } from './MacroForm';

// Settings → macros (issue 16): the space's macros and the user's own, with search; the form is
// MacroForm.tsx; running one is features/inbox/components/MacroRunner.tsx.

/** settings/macros */
export function MacrosScreen() {
  const { t } = useTranslation();
  const { spaces, spaceId, setSpace } = useManagedSpace('macros.use');
  const list = useMacros(spaces.length > 0);
  const remove = useDeleteMacro();
  const [q, setQ] = useState('');
  const inSpace = useMemo(
    () => (list.data?.items ?? []).filter((x) => x.space_id === spaceId),
    [list.data, spaceId],
  );
  if (spaces.length === 0) return <MacrosOff />;
  const shown = filterMacros(inSpace, q);
  const canManage = (x: MacroDto) => x.user_id !== null || (list.data?.can_manage ?? []).includes(x.space_id);

  return (
    <Stack gap="lg">
      <PageHeader
        title={t('settings.macros.heading')}
        actions={
          <Button
            component={Link}
            to={pathFor('settings-macros-new', {}, { space_id: spaceId ?? undefined })}
            leftSection={<IconPlus size={16} />}
            data-testid="macro-add"
          >
            {t('settings.macros.add')}
          </Button>
        }
      />
      <Text c="dimmed" fz="sm">
        {t('settings.macros.hint')}
      </Text>
      <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('settings.macros.search')}
        aria-label={t('settings.macros.search')}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        w={{ base: '100%', sm: 320 }}
        data-testid="macro-search"
      />
      {list.isPending ? (
        <Center py={40}>
          <Loader />
        </Center>
      ) : list.error ? (
        <Alert color="red" variant="light" role="alert" title={t('settings.macros.loadError')}>
          <Group justify="space-between">
            <Text fz="sm">{list.error.message}</Text>
            <Button size="compact-sm" variant="white" onClick={() => void list.refetch()}>
              {t('settings.macros.retry')}
            </Button>
          </Group>
        </Alert>
      ) : shown.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text ta="center" c="dimmed" data-testid="macros-empty">
            {inSpace.length === 0 ? t('settings.macros.empty') : t('settings.macros.nothingFound')}
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
              data-testid="macro-row"
            >
              <Stack gap={2} miw={0}>
                <Group gap="xs" wrap="nowrap" miw={0}>
                  {x.shortcut !== null && (
                    <Tooltip label={t('settings.macros.keyBadge', { key: x.shortcut })}>
                      <Badge variant="outline" color="gray" size="sm" style={{ flexShrink: 0 }}>
                        {x.shortcut}
                      </Badge>
                    </Tooltip>
                  )}
                  <Anchor
                    component={Link}
                    to={pathFor('settings-macro', { id: x.id })}
                    fz="sm"
                    fw={500}
                    truncate="end"
                  >
                    {x.name}
                  </Anchor>
                  {x.user_id !== null && (
                    <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
                      {t('settings.macros.personalBadge')}
                    </Badge>
                  )}
                </Group>
                <Text fz="xs" c="dimmed" truncate="end">
                  {x.actions.map((a) => t(`settings.macros.types.${a.type}`)).join(' → ')}
                </Text>
              </Stack>
              <Group gap="xs" wrap="nowrap">
                <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} visibleFrom="sm">
                  {t('settings.macros.uses', { count: x.usage_count })}
                </Text>
                {canManage(x) && (
                  <ConfirmAction
                    title={t('settings.macros.deleteTitle', { name: x.name })}
                    message={t('settings.macros.deleteText')}
                    confirmLabel={t('settings.macros.delete')}
                    onConfirm={() => remove.mutateAsync(x.id)}
                  >
                    {(open) => (
                      <Tooltip label={t('settings.macros.delete')}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          onClick={open}
                          aria-label={t('settings.macros.delete')}
                          data-testid="macro-delete"
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

/** settings/macros/new and settings/macros/:id */
export function MacroScreen() {
  const { t } = useTranslation();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const { spaces, spaceId } = useManagedSpace('macros.use');
  const list = useMacros(spaces.length > 0);
  if (spaces.length === 0) return <MacrosOff />;
  if (list.isPending) {
    return (
      <Center py={40}>
        <Loader />
      </Center>
    );
  }
  if (list.error) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('settings.macros.loadError')}>
        {list.error.message}
      </Alert>
    );
  }
  const macro = id ? list.data?.items.find((x) => x.id === id) : undefined;
  if (id && !macro) return <RecordNotFound title={t('settings.macros.notFound')} />;
  const space = macro?.space_id ?? spaceId ?? 0;
  return (
    <MacroForm
      key={id ?? 'new'}
      macro={macro}
      spaceId={space}
      canManageSpace={(list.data?.can_manage ?? []).includes(space)}
    />
  );
}

/** Macros off for the caller (the space flag, the tariff, or the role). */
function MacrosOff() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('settings.macros.heading')} />
      <Alert color="gray" variant="light" data-testid="macros-off">
        {t('settings.macros.off')}
      </Alert>
    </Stack>
  );
}
