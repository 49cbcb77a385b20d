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
  Tooltip,
} from '@mantine/core';
import type { RuleDto } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import {
  IconArrowDown,
  IconArrowUp,
  IconPlayerPause,
  IconPlayerPlay,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useDeleteRule, useRules, useUpdateRule } from '../../../api/rules';
import { ConfirmAction } from '../../../components/ConfirmAction';
import { showError } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { RecordNotFound } from '../../../shell/RecordNotFound';
import { RuleForm } from './RuleForm';

// Settings → auto-rules (issue 17): the space's rules in the order they run, pause/resume, delete; the
// form with the conditions builder and the dry run is RuleForm.tsx; stats/rules is features/stats.

/** settings/rules */
export function RulesScreen() {
  const { t } = useTranslation();
  const { spaces, spaceId, setSpace } = useManagedSpace('rules.manage');
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
      <PageHeader
        title={t('settings.rules.heading')}
        actions={
          <Button
            component={Link}
            to={pathFor('settings-rules-create', {}, { space_id: spaceId ?? undefined })}
            leftSection={<IconPlus size={16} />}
            data-testid="rule-add"
          >
            {t('settings.rules.add')}
          </Button>
        }
      />
      <Text c="dimmed" fz="sm">
        {t('settings.rules.hint')}
      </Text>
      <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
      {list.isPending ? (
        <Center py={40}>
          <Loader />
        </Center>
      ) : list.error ? (
        <Alert color="red" variant="light" role="alert" title={t('settings.rules.loadError')}>
          <Group justify="space-between">
            <Text fz="sm">{list.error.message}</Text>
            <Button size="compact-sm" variant="white" onClick={() => void list.refetch()}>
              {t('settings.rules.retry')}
            </Button>
          </Group>
        </Alert>
      ) : shown.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text ta="center" c="dimmed" data-testid="rules-empty">
            {t('settings.rules.empty')}
          </Text>
        </Paper>
      ) : (
        <Paper withBorder radius="md" p={0}>
          {shown.map((x, index) => (
            <Group
              key={x.id}
              justify="space-between"
              p="sm"
              wrap="nowrap"
              style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
              data-testid="rule-row"
            >
              <Stack gap={2} miw={0}>
                <Group gap="xs" wrap="nowrap" miw={0}>
                  <Text fz="xs" c="dimmed" style={{ flexShrink: 0 }}>
                    {index + 1}.
                  </Text>
                  <Anchor
                    component={Link}
                    to={pathFor('settings-rule', { id: x.id })}
                    fz="sm"
                    fw={500}
                    truncate="end"
                  >
                    {x.name}
                  </Anchor>
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
                <Text fz="xs" c="dimmed" truncate="end">
                  {t(`settings.rules.triggers.${x.trigger}`)}
                  {x.trigger === 'no_reply' && x.minutes ? ` (${x.minutes})` : ''}
                  {x.trigger === 'waiting_customer' && x.minutes ? ` (${x.minutes / 60})` : ''} →{' '}
                  {x.actions.map((a) => t(`settings.macros.types.${a.type}`)).join(', ')}
                </Text>
              </Stack>
              <Group gap="xs" wrap="nowrap">
                <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} visibleFrom="sm">
                  {t('settings.rules.matches', { count: x.match_count })}
                </Text>
                <Tooltip label={t('settings.rules.moveUp')}>
                  <ActionIcon
                    variant="subtle"
                    disabled={index === 0 || update.isPending}
                    onClick={() => void move(index, -1)}
                    aria-label={t('settings.rules.moveUp')}
                    visibleFrom="sm"
                  >
                    <IconArrowUp size={16} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('settings.rules.moveDown')}>
                  <ActionIcon
                    variant="subtle"
                    disabled={index === shown.length - 1 || update.isPending}
                    onClick={() => void move(index, 1)}
                    aria-label={t('settings.rules.moveDown')}
                    visibleFrom="sm"
                    data-testid="rule-move-down"
                  >
                    <IconArrowDown size={16} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={x.paused ? t('settings.rules.resume') : t('settings.rules.pause')}>
                  <ActionIcon
                    variant="subtle"
                    onClick={() => togglePause(x)}
                    aria-label={x.paused ? t('settings.rules.resume') : t('settings.rules.pause')}
                    data-testid="rule-pause"
                  >
                    {x.paused ? <IconPlayerPlay size={16} /> : <IconPlayerPause size={16} />}
                  </ActionIcon>
                </Tooltip>
                <ConfirmAction
                  title={t('settings.rules.deleteTitle', { name: x.name })}
                  message={t('settings.rules.deleteText')}
                  confirmLabel={t('settings.rules.delete')}
                  onConfirm={() => remove.mutateAsync(x.id)}
                >
                  {(open) => (
                    <Tooltip label={t('settings.rules.delete')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        onClick={open}
                        aria-label={t('settings.rules.delete')}
                        data-testid="rule-delete"
                      >
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

/** settings/rules/create and settings/rules/:id */
export function RuleScreen() {
  const { t } = useTranslation();
  const params = useParams();
  const id = params.id ? Number(params.id) : null;
  const { spaces, spaceId } = useManagedSpace('rules.manage');
  const list = useRules(spaces.length > 0);
  if (spaces.length === 0) return <RulesOff />;
  if (list.isPending) {
    return (
      <Center py={40}>
        <Loader />
      </Center>
    );
  }
  if (list.error) {
    return (
      <Alert color="red" variant="light" role="alert" title={t('settings.rules.loadError')}>
        {list.error.message}
      </Alert>
    );
  }
  const rule = id ? list.data?.items.find((x) => x.id === id) : undefined;
  if (id && !rule) return <RecordNotFound title={t('settings.rules.notFound')} />;
  return <RuleForm key={id ?? 'new'} rule={rule} spaceId={rule?.space_id ?? spaceId ?? 0} />;
}

function RulesOff() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <PageHeader title={t('settings.rules.heading')} />
      <Alert color="gray" variant="light" data-testid="rules-off">
        {t('settings.rules.off')}
      </Alert>
    </Stack>
  );
}
