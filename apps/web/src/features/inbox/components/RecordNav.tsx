import { ActionIcon, Anchor, Group, Kbd, Modal, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconKeyboard } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { showError } from '../../../components/notify';
import { useRecordShortcuts } from '../hooks/useRecordKeys';
import { useRecordNav } from '../hooks/useRecordNav';
import { type InboxKey, useInboxT } from '../i18n';
import type { ListKind } from '../model/filters';
import { ITEM_SHORTCUTS, type ItemCommand } from '../model/itemKeys';
import { notifyDone } from '../notify';

// The item and chat pages' way through the list without going back to it (j/k, issue 13) and the
// keyboard help (`?`).

export function useRecordNavigation(kind: ListKind, id: number) {
  const nav = useRecordNav(kind, id);
  const navigate = useNavigate();
  return {
    ...nav,
    goPrev: () => nav.prev && navigate(nav.prev),
    goNext: () => nav.next && navigate(nav.next),
  };
}

export function RecordNav({
  nav,
  onHelp,
}: {
  nav: ReturnType<typeof useRecordNavigation>;
  onHelp: () => void;
}) {
  const t = useInboxT();
  return (
    <Group justify="space-between" gap="xs" data-testid="record-nav">
      <Anchor component={Link} to={nav.listPath} fz="sm">
        {t('workday.nav.list')}
      </Anchor>
      <Group gap={6} wrap="nowrap">
        {nav.index >= 0 && (
          <Text fz="xs" c="dimmed" data-testid="record-position">
            {t('workday.nav.position', { index: nav.index + 1, count: nav.count })}
          </Text>
        )}
        <Tooltip label={`${t('workday.nav.prev')} (k)`}>
          <ActionIcon
            variant="default"
            disabled={!nav.prev}
            onClick={nav.goPrev}
            aria-label={t('workday.nav.prev')}
            data-testid="record-prev"
          >
            <IconChevronUp size={16} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={`${t('workday.nav.next')} (j)`}>
          <ActionIcon
            variant="default"
            disabled={!nav.next}
            onClick={nav.goNext}
            aria-label={t('workday.nav.next')}
            data-testid="record-next"
          >
            <IconChevronDown size={16} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={`${t('workday.keys.button')} (?)`}>
          <ActionIcon
            variant="default"
            onClick={onHelp}
            aria-label={t('workday.keys.button')}
            data-testid="keys-help-open"
          >
            <IconKeyboard size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Group>
  );
}

const LABEL: Record<ItemCommand, InboxKey> = {
  reply: 'workday.keys.reply',
  close: 'workday.keys.close',
  assignMe: 'workday.keys.assignMe',
  tag: 'workday.keys.tag',
  next: 'workday.keys.next',
  prev: 'workday.keys.prev',
  search: 'workday.keys.search',
  help: 'workday.keys.help',
};

/** Every shortcut of the page, and the list's, in the user's language. */
export function ShortcutsHelp({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const t = useInboxT();
  return (
    <Modal opened={opened} onClose={onClose} title={t('workday.keys.title')} centered data-testid="keys-help">
      <Stack gap="sm">
        <Table withRowBorders={false} verticalSpacing={4}>
          <Table.Tbody>
            {ITEM_SHORTCUTS.map((shortcut) => (
              <Table.Tr key={shortcut.command} data-testid={`key-${shortcut.command}`}>
                <Table.Td w={60}>
                  {shortcut.keys.map((key) => (
                    <Kbd key={key}>{key}</Kbd>
                  ))}
                </Table.Td>
                <Table.Td>{t(LABEL[shortcut.command])}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text fz="sm" c="dimmed">
          {t('workday.keys.listNote')}
        </Text>
      </Stack>
    </Modal>
  );
}

/**
 * What the item and chat pages add for the keyboard: the way through the list, the shortcuts
 * (hooks/useRecordKeys.ts) and their help.
 */
export function RecordTools({
  kind,
  id,
  canReply,
  canTag,
  assignMe,
}: {
  kind: ListKind;
  id: number;
  canReply: boolean;
  canTag: boolean;
  /** Assign the record to the signed-in user; absent when the role may not assign. */
  assignMe?: () => Promise<unknown>;
}) {
  const t = useInboxT();
  const nav = useRecordNavigation(kind, id);
  const [helpOpen, setHelpOpen] = useState(false);
  useRecordShortcuts({
    nav,
    onHelp: () => setHelpOpen(true),
    canReply,
    canTag,
    assignMe: assignMe
      ? () =>
          void assignMe().then(
            () => notifyDone(t('workday.keys.assigned')),
            (error: unknown) => showError(error),
          )
      : undefined,
  });
  return (
    <>
      <RecordNav nav={nav} onHelp={() => setHelpOpen(true)} />
      <ShortcutsHelp opened={helpOpen} onClose={() => setHelpOpen(false)} />
    </>
  );
}
