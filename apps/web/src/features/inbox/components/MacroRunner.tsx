import {
  ActionIcon,
  Badge,
  Button,
  Divider,
  Group,
  Kbd,
  Loader,
  Menu,
  Modal,
  Paper,
  Stack,
  Text,
  useMatches,
} from '@mantine/core';
import {
  can,
  filterMacros,
  type MacroActionOutcome,
  type MacroDto,
  type MacroItemReport,
  type MacroRunResult,
} from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconBolt, IconChevronDown } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMacros, usePreviewMacro, useRunMacro } from '../../../api/macros';
import { showError } from '../../../components/notify';
import { useShell } from '../../../shell/ShellContext';
import { providerName } from './ProviderIcon';

// The macro runner (issue 16): a "Macros" menu for one comment (the item page) or a selection (the
// list's bulk bar mounts it with the selected ids). Choosing a macro — or pressing its digit key when
// `shortcuts` is on — opens the preview of what it will do per item; Run applies it and the same dialog
// shows what happened to each item.

const OUTCOME_COLOR: Record<MacroActionOutcome, string> = {
  apply: 'blue',
  queue: 'blue',
  skip: 'gray',
  unavailable: 'gray',
  applied: 'green',
  queued: 'teal',
  skipped: 'gray',
  failed: 'red',
  not_run: 'orange',
};
const STATUS_COLOR = { ok: 'green', skipped: 'gray', failed: 'red' } as const;

export function MacroRunner({
  itemIds,
  spaceId,
  shortcuts = false,
  onDone,
  onOpen,
}: {
  itemIds: number[];
  spaceId: number;
  /** Digits 1–9 open the preview of the macro with that key (the item page). */
  shortcuts?: boolean;
  onDone?: (result: MacroRunResult) => void;
  /**
   * The caller shows the dialog itself (MacroDialog): a selection's bar goes away as the run changes the
   * rows, and the result must stay on screen.
   */
  onOpen?: (macro: MacroDto) => void;
}) {
  const { t } = useTranslation();
  const { actor } = useShell();
  const allowed = can(actor, 'macros.use', spaceId);
  const compact = useMatches({ base: true, sm: false });
  const list = useMacros(allowed);
  const macros = useMemo(
    () =>
      filterMacros(
        (list.data?.items ?? []).filter((m) => m.space_id === spaceId),
        '',
      ),
    [list.data, spaceId],
  );
  const [open, setOpen] = useState<MacroDto | null>(null);
  const byKey = useRef(new Map<number, MacroDto>());
  byKey.current = new Map(macros.filter((m) => m.shortcut !== null).map((m) => [m.shortcut!, m]));

  useEffect(() => {
    if (!shortcuts) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target && (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable)) return;
      if (target?.closest('[role="dialog"], [role="menu"], [role="listbox"]')) return;
      if (!/^[1-9]$/.test(event.key)) return;
      const macro = byKey.current.get(Number(event.key));
      if (!macro) return;
      event.preventDefault();
      setOpen(macro);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shortcuts]);

  if (!allowed) return null;
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          {compact ? (
            // Phones: the icon alone, so the page's other actions keep their room.
            <ActionIcon
              variant="default"
              size="lg"
              disabled={itemIds.length === 0}
              aria-label={t('settings.macros.runner.button')}
              data-testid="macro-menu"
            >
              <IconBolt size={18} />
            </ActionIcon>
          ) : (
            <Button
              variant="default"
              leftSection={<IconBolt size={16} />}
              rightSection={<IconChevronDown size={14} />}
              disabled={itemIds.length === 0}
              data-testid="macro-menu"
            >
              {t('settings.macros.runner.button')}
            </Button>
          )}
        </Menu.Target>
        <Menu.Dropdown>
          {list.isPending ? (
            <Menu.Item disabled>
              <Loader size="xs" />
            </Menu.Item>
          ) : macros.length === 0 ? (
            <Menu.Item disabled>{t('settings.macros.runner.none')}</Menu.Item>
          ) : (
            macros.map((m) => (
              <Menu.Item
                key={m.id}
                onClick={() => (onOpen ? onOpen(m) : setOpen(m))}
                rightSection={
                  shortcuts && m.shortcut !== null ? <Kbd size="xs">{m.shortcut}</Kbd> : undefined
                }
                data-testid="macro-menu-item"
              >
                {m.name}
              </Menu.Item>
            ))
          )}
          <Menu.Divider />
          <Menu.Item component={Link} to={pathFor('settings-macros', {}, { space_id: spaceId })}>
            {t('settings.macros.runner.manage')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {open && <MacroDialog macro={open} itemIds={itemIds} onClose={() => setOpen(null)} onDone={onDone} />}
    </>
  );
}

/** The preview of a macro on the items, then — after Run — what happened to each. */
export function MacroDialog({
  macro,
  itemIds,
  onClose,
  onDone,
}: {
  macro: MacroDto;
  itemIds: number[];
  onClose: () => void;
  onDone?: (result: MacroRunResult) => void;
}) {
  const { t } = useTranslation();
  const preview = usePreviewMacro();
  const run = useRunMacro();
  const ids = itemIds.join(',');
  const previewMutate = preview.mutate;
  // biome-ignore lint/correctness/useExhaustiveDependencies: ids stands for itemIds
  useEffect(() => {
    previewMutate({ id: macro.id, item_ids: itemIds }, { onError: showError });
  }, [macro.id, ids, previewMutate]);
  const result = run.data;
  const shown = result ?? preview.data;
  const willDo = (preview.data?.items ?? []).some((i) => i.status === 'ok');

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={
        result
          ? t('settings.macros.runner.resultTitle', { name: macro.name })
          : t('settings.macros.runner.previewTitle', { name: macro.name })
      }
      data-testid="macro-dialog"
    >
      <Stack gap="sm">
        {!result && (
          <Text fz="sm" c="dimmed">
            {t('settings.macros.runner.previewHint')}
          </Text>
        )}
        {!shown ? (
          <Group gap="xs">
            <Loader size="sm" />
            <Text fz="sm">{t('settings.macros.runner.loading')}</Text>
          </Group>
        ) : (
          <>
            {result && (
              <Text fw={500} data-testid="macro-summary">
                {t('settings.macros.runner.summary', result.summary)}
              </Text>
            )}
            <Stack gap="xs" data-testid={result ? 'macro-result' : 'macro-preview'}>
              {shown.items.map((item) => (
                <ItemReport key={item.item_id} item={item} final={Boolean(result)} />
              ))}
            </Stack>
          </>
        )}
        <Divider />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-testid="macro-close">
            {result ? t('settings.macros.runner.done') : t('settings.macros.runner.close')}
          </Button>
          {!result && (
            <Button
              loading={run.isPending}
              disabled={!willDo}
              onClick={() =>
                run.mutate(
                  { id: macro.id, item_ids: itemIds },
                  { onSuccess: (r) => onDone?.(r), onError: showError },
                )
              }
              data-testid="macro-run"
            >
              {t('settings.macros.runner.run')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

function ItemReport({ item, final }: { item: MacroItemReport; final: boolean }) {
  const { t } = useTranslation();
  const describe = useDescribe();
  return (
    <Paper
      withBorder
      radius="sm"
      p="xs"
      data-testid="macro-item"
      data-item-id={item.item_id}
      data-status={item.status}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text fz="sm" fw={500} truncate="end">
          {t('settings.macros.runner.item', { id: item.item_id })}
          {item.provider ? ` · ${providerName(item.provider)}` : ''}
        </Text>
        {final && (
          <Badge color={STATUS_COLOR[item.status]} variant="light" style={{ flexShrink: 0 }}>
            {t(`settings.macros.runner.itemStatus.${item.status}`)}
          </Badge>
        )}
      </Group>
      {item.message && (
        <Text fz="xs" c={item.status === 'failed' ? 'red' : 'dimmed'}>
          {item.message}
        </Text>
      )}
      <Stack gap={2} mt={4}>
        {item.actions.map((action, index) => (
          <Group
            // biome-ignore lint/suspicious/noArrayIndexKey: actions are a fixed ordered list
            key={index}
            gap="xs"
            wrap="nowrap"
            align="flex-start"
            data-testid="macro-item-action"
            data-outcome={action.outcome}
          >
            <Badge
              size="xs"
              color={OUTCOME_COLOR[action.outcome]}
              variant="light"
              style={{ flexShrink: 0 }}
              mt={2}
            >
              {t(`settings.macros.runner.outcome.${action.outcome}`)}
            </Badge>
            <Text fz="xs" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
              {t(`settings.macros.types.${action.type}`)}
              {action.detail ? `: ${describe(action.type, action.detail)}` : ''}
              {action.message ? ` — ${action.message}` : ''}
            </Text>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}

/** Statuses and presets come as codes; everything else (reply text, tag and user names) as is. */
function useDescribe() {
  const { t } = useTranslation();
  return (type: string, detail: string): string => {
    if (type === 'set_status' || type === 'close')
      return t(`settings.macros.statuses.${detail as 'new'}`) as string;
    if (type === 'snooze') return t(`settings.macros.presets.${detail as '1h'}`) as string;
    return detail;
  };
}
