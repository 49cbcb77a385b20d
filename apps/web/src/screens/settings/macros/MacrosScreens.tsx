import { Badge, Group, Stack, TextInput, Tooltip } from '@mantine/core';
import { filterMacros, type MacroDto } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteMacro, useMacros } from '../../../api/macros';
import {
  AddButton,
  DeleteRowAction,
  ListHeader,
  ListRow,
  RowLink,
  RowMeta,
  SettingsList,
  SettingsOff,
} from '../../../features/settings-kit/SettingsList';
import { SpaceRecordScreen } from '../../../features/settings-kit/SpaceRecordScreen';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { MacroForm } from './MacroForm';

// Settings → macros (issue 16): the space's macros and the user's own, with search; the form is
// MacroForm.tsx; running one is features/inbox/components/MacroRunner.tsx.

/** settings/macros */
export function MacrosScreen() {
  const { t } = useTranslation();
  const space = useManagedSpace('macros.use');
  const { spaces, spaceId } = space;
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
      <ListHeader
        title={t('settings.macros.heading')}
        hint={t('settings.macros.hint')}
        space={space}
        actions={
          <AddButton
            to={pathFor('settings-macros-new', {}, { space_id: spaceId ?? undefined })}
            label={t('settings.macros.add')}
            testId="macro-add"
          />
        }
      />
      <TextInput
        leftSection={<IconSearch size={16} />}
        placeholder={t('settings.macros.search')}
        aria-label={t('settings.macros.search')}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        w={{ base: '100%', sm: 320 }}
        data-testid="macro-search"
      />
      <SettingsList
        query={list}
        rows={shown}
        empty={inSpace.length === 0 ? t('settings.macros.empty') : t('settings.macros.nothingFound')}
        emptyTestId="macros-empty"
        errorTitle={t('settings.macros.loadError')}
        retryLabel={t('settings.macros.retry')}
      >
        {(rows) =>
          rows.map((x) => (
            <ListRow
              key={x.id}
              testId="macro-row"
              actionsGap="xs"
              main={
                <Group gap="xs" wrap="nowrap" miw={0}>
                  {x.shortcut !== null && (
                    <Tooltip label={t('settings.macros.keyBadge', { key: x.shortcut })}>
                      <Badge variant="outline" color="gray" size="sm" style={{ flexShrink: 0 }}>
                        {x.shortcut}
                      </Badge>
                    </Tooltip>
                  )}
                  <RowLink to={pathFor('settings-macro', { id: x.id })}>{x.name}</RowLink>
                  {x.user_id !== null && (
                    <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
                      {t('settings.macros.personalBadge')}
                    </Badge>
                  )}
                </Group>
              }
              subtitle={x.actions.map((a) => t(`settings.macros.types.${a.type}`)).join(' → ')}
              actions={
                <>
                  <RowMeta>{t('settings.macros.uses', { count: x.usage_count })}</RowMeta>
                  {canManage(x) && (
                    <DeleteRowAction
                      title={t('settings.macros.deleteTitle', { name: x.name })}
                      message={t('settings.macros.deleteText')}
                      label={t('settings.macros.delete')}
                      onConfirm={() => remove.mutateAsync(x.id)}
                      testId="macro-delete"
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

/** settings/macros/new and settings/macros/:id */
export function MacroScreen() {
  const { t } = useTranslation();
  return (
    <SpaceRecordScreen
      ability="macros.use"
      useList={useMacros}
      off={<MacrosOff />}
      notFoundTitle={t('settings.macros.notFound')}
      errorTitle={t('settings.macros.loadError')}
    >
      {(macro, spaceId, key, canManageSpace) => (
        <MacroForm key={key} macro={macro} spaceId={spaceId} canManageSpace={canManageSpace} />
      )}
    </SpaceRecordScreen>
  );
}

/** Macros off for the caller (the space flag, the tariff, or the role). */
function MacrosOff() {
  const { t } = useTranslation();
  return (
    <SettingsOff title={t('settings.macros.heading')} text={t('settings.macros.off')} testId="macros-off" />
  );
}
