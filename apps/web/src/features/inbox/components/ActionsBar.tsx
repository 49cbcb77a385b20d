import { ActionIcon, Button, Group, Menu, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { BLOCK_DURATIONS, type BlockDuration } from '@otklik/shared';
import {
  type Icon,
  IconBan,
  IconCheck,
  IconChecks,
  IconClock,
  IconDots,
  IconHourglass,
  IconLockOpen,
  IconPlayerPlay,
  IconRefresh,
} from '@tabler/icons-react';
import { useState } from 'react';
import type { StatusBody } from '../../../api/inbox';
import { showError } from '../../../components/notify';
import { useInboxT } from '../i18n';
import { attemptAction } from '../model/actions';
import { fromLocalInput, toLocalInput } from '../model/time';

// The actions of an item or a chat page: a Close button, and a menu with the other statuses (SPEC §4),
// what the network allows to do to the record, and blocking the author for a duration (SPEC §9).

export interface StatusFlags {
  close: boolean;
  closeWithoutReply: boolean;
  reopen: boolean;
  inProgress: boolean;
  waiting: boolean;
  delay: boolean;
  block: boolean;
  unblock: boolean;
}

export interface ExtraAction {
  key: string;
  label: string;
  icon: Icon;
  color?: string;
  onClick: () => void;
}

export function ActionsBar({
  flags,
  onStatus,
  onBlock,
  blockHint,
  extra = [],
}: {
  flags: StatusFlags;
  onStatus: (body: StatusBody) => Promise<unknown>;
  onBlock: (duration: BlockDuration | null) => Promise<unknown>;
  /** Shown under the block entries when the network cannot ban (the block is Otklik's only). */
  blockHint?: string | null;
  extra?: ExtraAction[];
}) {
  const t = useInboxT();
  const [busy, setBusy] = useState(false);
  const [delayOpen, setDelayOpen] = useState(false);

  /** True when the action went through; a failure shows its error and answers false. */
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      return await attemptAction(work, showError);
    } finally {
      setBusy(false);
    }
  };
  const status = (body: StatusBody) => run(() => onStatus(body));

  const primary = flags.close
    ? {
        label: t('actions.close'),
        body: { status: 'closed', close_reason: 'reply' } as StatusBody,
        testId: 'action-close',
      }
    : flags.closeWithoutReply
      ? {
          label: t('actions.closeWithoutReply'),
          body: { status: 'closed', close_reason: 'noreply' } as StatusBody,
          testId: 'action-close-noreply',
        }
      : null;

  const statusEntries: ExtraAction[] = [
    ...(flags.inProgress
      ? [
          {
            key: 'inprogress',
            label: t('actions.inProgress'),
            icon: IconPlayerPlay,
            onClick: () => void status({ status: 'inprogress' }),
          },
        ]
      : []),
    ...(flags.close && flags.closeWithoutReply
      ? [
          {
            key: 'noreply',
            label: t('actions.closeWithoutReply'),
            icon: IconChecks,
            onClick: () => void status({ status: 'closed', close_reason: 'noreply' }),
          },
        ]
      : []),
    ...(flags.waiting
      ? [
          {
            key: 'waiting',
            label: t('actions.waiting'),
            icon: IconHourglass,
            onClick: () => void status({ status: 'waiting' }),
          },
        ]
      : []),
    ...(flags.delay
      ? [{ key: 'delay', label: t('actions.delay'), icon: IconClock, onClick: () => setDelayOpen(true) }]
      : []),
    ...(flags.reopen
      ? [
          {
            key: 'reopen',
            label: t('actions.reopen'),
            icon: IconRefresh,
            onClick: () => void status({ status: 'inprogress' }),
          },
        ]
      : []),
  ];
  const hasMenu = statusEntries.length > 0 || extra.length > 0 || flags.block || flags.unblock;

  return (
    <Group gap="xs" wrap="nowrap" data-testid="actions-bar">
      {primary && (
        <Button
          variant="light"
          color="teal"
          leftSection={<IconCheck size={16} />}
          loading={busy}
          onClick={() => void status(primary.body)}
          data-testid={primary.testId}
        >
          {primary.label}
        </Button>
      )}
      {hasMenu && (
        <Menu position="bottom-end" withinPortal shadow="md" width={260}>
          <Menu.Target>
            <Tooltip label={t('actions.menu')}>
              <ActionIcon
                variant="default"
                size="lg"
                aria-label={t('actions.menu')}
                data-testid="actions-menu"
              >
                <IconDots size={18} />
              </ActionIcon>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            {statusEntries.map((entry) => (
              <Menu.Item
                key={entry.key}
                leftSection={<entry.icon size={16} />}
                onClick={entry.onClick}
                data-testid={`action-${entry.key}`}
              >
                {entry.label}
              </Menu.Item>
            ))}
            {statusEntries.length > 0 && extra.length > 0 && <Menu.Divider />}
            {extra.map((entry) => (
              <Menu.Item
                key={entry.key}
                leftSection={<entry.icon size={16} />}
                color={entry.color}
                onClick={entry.onClick}
                data-testid={`action-${entry.key}`}
              >
                {entry.label}
              </Menu.Item>
            ))}
            {(flags.block || flags.unblock) && <Menu.Divider />}
            {flags.block && (
              <Menu.Sub position="left-start">
                <Menu.Sub.Target>
                  <Menu.Sub.Item leftSection={<IconBan size={16} />} color="red" data-testid="action-block">
                    {t('actions.block')}
                  </Menu.Sub.Item>
                </Menu.Sub.Target>
                <Menu.Sub.Dropdown miw={200}>
                  <Menu.Label>{t('actions.blockFor')}</Menu.Label>
                  {BLOCK_DURATIONS.map((duration) => (
                    <Menu.Item
                      key={duration}
                      onClick={() => void run(() => onBlock(duration))}
                      data-testid={`block-${duration}`}
                    >
                      {t(`duration.${duration}`)}
                    </Menu.Item>
                  ))}
                  {blockHint && (
                    <Text fz="xs" c="dimmed" px="sm" py={4} maw={220}>
                      {blockHint}
                    </Text>
                  )}
                </Menu.Sub.Dropdown>
              </Menu.Sub>
            )}
            {flags.unblock && (
              <Menu.Item
                leftSection={<IconLockOpen size={16} />}
                onClick={() => void run(() => onBlock(null))}
                data-testid="action-unblock"
              >
                {t('actions.unblock')}
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      )}
      <DelayModal
        opened={delayOpen}
        onClose={() => setDelayOpen(false)}
        // A refused delay keeps the dialog open (the error is shown), so the time can be corrected.
        onApply={async (until) => {
          if (await status({ status: 'delayed', delayed_until: until })) setDelayOpen(false);
        }}
      />
    </Group>
  );
}

/** SPEC §4 delayed: until a moment in the future (a date-time picker). */
export function DelayModal({
  opened,
  onClose,
  onApply,
}: {
  opened: boolean;
  onClose: () => void;
  onApply: (until: number) => Promise<unknown>;
}) {
  const t = useInboxT();
  const tomorrow = () => {
    const d = new Date();
    d.setDate(d.getDate() + 1);
    d.setHours(10, 0, 0, 0);
    return toLocalInput(Math.floor(d.getTime() / 1000));
  };
  const [value, setValue] = useState(tomorrow);
  const [applying, setApplying] = useState(false);
  const until = fromLocalInput(value);
  const valid = until !== null && until > Date.now() / 1000;
  const apply = async () => {
    if (until === null) return;
    setApplying(true);
    try {
      await onApply(until);
    } finally {
      setApplying(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('actions.delayTitle')} centered size="sm">
      <Stack>
        <TextInput
          type="datetime-local"
          label={t('actions.delayLabel')}
          value={value}
          min={toLocalInput(Math.floor(Date.now() / 1000))}
          onChange={(event) => setValue(event.currentTarget.value)}
          data-testid="delay-input"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button disabled={!valid} loading={applying} onClick={() => void apply()} data-testid="delay-apply">
            {t('actions.delayApply')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
