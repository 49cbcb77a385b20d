import { Badge, Group, Stack, Text } from '@mantine/core';
import type { RuleDto } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconArrowDown, IconArrowUp, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useDeleteRule, useRules, useUpdateRule } from '../../../api/rules';
import { showError } from '../../../components/notify';
import {
  AddButton,
  DeleteRowAction,
  ListHeader,
  ListRow,
  RowAction,
  RowLink,
  RowMeta,
  SettingsList,
  SettingsOff,
} from '../../../features/settings-kit/SettingsList';
import { SpaceRecordScreen } from '../../../features/settings-kit/SpaceRecordScreen';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { RuleForm } from './RuleForm';

// Settings → auto-rules (issue 17): the space's rules in the order they run, pause/resume, delete; the
// form with the conditions builder and the dry run is RuleForm.tsx; stats/rules is features/stats.

/** settings/rules */
export function RulesScreen() {
  const { t } = useTranslation();
  const space = useManagedSpace('rules.manage');
  const { spaces, spaceId } = space;
  const list = useRules(spaces.length > 0);
  const remove = useDeleteRule();
  const update = useUpdateRule();
  if (spaces.length === 0) return <RulesOff />;
  const shown = (list.data?.items ?? []).filter((x) => x.space_id === spaceId);
  const save = (x: RuleDto, change: Partial<Pick<RuleDto, 'paused' | 'position'>>) => {
    const { id, name, trigger, minutes, conditions, actions, stop_processing, position, paused } = x;
    return update.mutateAsync({
      id,
      name,
      trigger,
      minutes,
      conditions,
      actions,
      stop_processing,
      position,
      paused,
      ...change,
    });
  };
  const togglePause = (x: RuleDto) => void save(x, { paused: !x.paused }).catch((e: Error) => showError(e));
  /** Moves a rule one place up or down: the list is renumbered 0, 1, 2… and the changed rules saved. */
  const move = async (index: number, by: -1 | 1) => {
    const next = [...shown];
    const [row] = next.splice(index, 1);
    next.splice(index + by, 0, row!);
    try {
      for (const [position, x] of next.entries()) if (x.position !== position) await save(x, { position });
    } catch (e) {
      showError(e as Error);
    }
  };

  return (
    <Stack gap="lg">
      <ListHeader
        title={t('settings.rules.heading')}
        hint={t('settings.rules.hint')}
        space={space}
        actions={
          <AddButton
            to={pathFor('settings-rules-create', {}, { space_id: spaceId ?? undefined })}
            label={t('settings.rules.add')}
            testId="rule-add"
          />
        }
      />
      <SettingsList
        query={list}
        rows={shown}
        empty={t('settings.rules.empty')}
        emptyTestId="rules-empty"
        errorTitle={t('settings.rules.loadError')}
        retryLabel={t('settings.rules.retry')}
      >
        {(rows) =>
          rows.map((x, index) => (
            <ListRow
              key={x.id}
              testId="rule-row"
              actionsGap="xs"
              main={
                <Group gap="xs" wrap="nowrap" miw={0}>
                  <Text fz="xs" c="dimmed" style={{ flexShrink: 0 }}>
                    {index + 1}.
                  </Text>
                  <RowLink to={pathFor('settings-rule', { id: x.id })}>{x.name}</RowLink>
                  <Badge
                    size="sm"
                    color={x.paused ? 'gray.7' : 'teal.9'}
                    style={{ flexShrink: 0 }}
                    data-testid="rule-state"
                  >
                    {x.paused ? t('settings.rules.paused') : t('settings.rules.active')}
                  </Badge>
                  {x.stop_processing && (
                    <Badge
                      variant="outline"
                      size="sm"
                      color="gray"
                      style={{ flexShrink: 0 }}
                      visibleFrom="sm"
                    >
                      {t('settings.rules.stopBadge')}
                    </Badge>
                  )}
                </Group>
              }
              subtitle={
                <>
                  {t(`settings.rules.triggers.${x.trigger}`)}
                  {x.trigger === 'no_reply' && x.minutes ? ` (${x.minutes})` : ''}
                  {x.trigger === 'waiting_customer' && x.minutes ? ` (${x.minutes / 60})` : ''} →{' '}
                  {x.actions.map((a) => t(`settings.macros.types.${a.type}`)).join(', ')}
                </>
              }
              actions={
                <>
                  <RowMeta>{t('settings.rules.matches', { count: x.match_count })}</RowMeta>
                  <RowAction
                    label={t('settings.rules.moveUp')}
                    icon={<IconArrowUp size={16} />}
                    color={null}
                    disabled={index === 0 || update.isPending}
                    onClick={() => void move(index, -1)}
                    visibleFrom="sm"
                  />
                  <RowAction
                    label={t('settings.rules.moveDown')}
                    icon={<IconArrowDown size={16} />}
                    color={null}
                    disabled={index === shown.length - 1 || update.isPending}
                    onClick={() => void move(index, 1)}
                    visibleFrom="sm"
                    testId="rule-move-down"
                  />
                  <RowAction
                    label={x.paused ? t('settings.rules.resume') : t('settings.rules.pause')}
                    icon={x.paused ? <IconPlayerPlay size={16} /> : <IconPlayerPause size={16} />}
                    color={null}
                    onClick={() => togglePause(x)}
                    testId="rule-pause"
                  />
                  <DeleteRowAction
                    title={t('settings.rules.deleteTitle', { name: x.name })}
                    message={t('settings.rules.deleteText')}
                    label={t('settings.rules.delete')}
                    onConfirm={() => remove.mutateAsync(x.id)}
                    testId="rule-delete"
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

/** settings/rules/create and settings/rules/:id */
export function RuleScreen() {
  const { t } = useTranslation();
  return (
    <SpaceRecordScreen
      ability="rules.manage"
      useList={useRules}
      off={<RulesOff />}
      notFoundTitle={t('settings.rules.notFound')}
      errorTitle={t('settings.rules.loadError')}
    >
      {(rule, spaceId, key) => <RuleForm key={key} rule={rule} spaceId={spaceId} />}
    </SpaceRecordScreen>
  );
}

function RulesOff() {
  const { t } = useTranslation();
  return (
    <SettingsOff title={t('settings.rules.heading')} text={t('settings.rules.off')} testId="rules-off" />
  );
}
