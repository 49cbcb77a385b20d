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
import { useLocale } from '../../../i18n/useLocale';
import { useInboxT } from '../i18n';
import { attemptAction } from '../model/actions';
import { fromZonedInput, SNOOZE_PRESETS, snoozePresetTimes, toZonedInput } from '../model/snooze';

// The actions of an item or a chat page: a Close button, and a menu with the other statuses (docs/product/states.md),
// what the network allows to do to the record, and blocking the author for a duration (docs/product/limits.md).

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
  typingColleague = null,
  timeZone,
}: {
  flags: StatusFlags;
  onStatus: (body: StatusBody) => Promise<unknown>;
  onBlock: (duration: BlockDuration | null) => Promise<unknown>;
  /** Why there is no block entry (the network's API cannot ban): shown as a disabled entry. */
  blockHint?: string | null;
  extra?: ExtraAction[];
  /** A colleague typing a reply here right now (holds its lock): closing asks first. */
  typingColleague?: string | null;
  /** The space's IANA time zone: snooze presets are its wall-clock times. */
  timeZone: string;
}) {
  const t = useInboxT();
  const [busy, setBusy] = useState(false);
  const [delayOpen, setDelayOpen] = useState(false);
  const [closing, setClosing] = useState<StatusBody | null>(null);

  /** True when the action went through; a failure shows its error and answers false. */
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      return await attemptAction(work, showError);
    } finally {
      setBusy(false);
    }
  };
  const apply = (body: StatusBody) => run(() => onStatus(body));
  const status = async (body: StatusBody) => {
    if (body.status === 'closed' && typingColleague) {
      setClosing(body);
      return false;
    }
    return apply(body);
  };

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
  const hasMenu =
    statusEntries.length > 0 || extra.length > 0 || flags.block || flags.unblock || Boolean(blockHint);

  return (
    <Group gap="xs" wrap="nowrap" data-testid="actions-bar">
      {primary && (
        <Button
          // Filled teal.9: white on it keeps 4.5:1 (the light variant's teal text did not).
          color="teal.9"
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
            {(flags.block || flags.unblock || blockHint) && <Menu.Divider />}
            {!flags.block && !flags.unblock && blockHint && (
              <Menu.Item
                disabled
                leftSection={<IconBan size={16} />}
                data-testid="action-block-unavailable"
                title={blockHint}
              >
                <Text fz="sm">{t('actions.block')}</Text>
                <Text fz="xs" c="dimmed" maw={220}>
                  {blockHint}
                </Text>
              </Menu.Item>
            )}
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
      <CloseWhileTypingModal
        name={closing ? typingColleague : null}
        busy={busy}
        onCancel={() => setClosing(null)}
        onConfirm={() => {
          const body = closing;
          setClosing(null);
          if (body) void apply(body);
        }}
      />
      <DelayModal
        timeZone={timeZone}
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

/** "Close while a colleague is typing a reply?" (issue 13): open while `name` is set. */
export function CloseWhileTypingModal({
  name,
  busy = false,
  onCancel,
  onConfirm,
}: {
  name: string | null;
  busy?: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const t = useInboxT();
  return (
    <Modal opened={name !== null} onClose={onCancel} title={t('actions.closeWhileTyping')} centered size="sm">
      <Text fz="sm">{t('actions.closeWhileTypingText', { name: name ?? '' })}</Text>
      <Group justify="flex-end" mt="lg" gap="xs">
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button color="teal" loading={busy} onClick={onConfirm} data-testid="confirm-close-typing">
          {t('actions.closeAnyway')}
        </Button>
      </Group>
    </Modal>
  );
}

/**
 * docs/product/states.md delayed ("snooze"): presets (1 hour, tomorrow 9:00, next Monday 9:00) and a custom date-time,
 * all on the wall clock of the space's time zone (model/snooze.ts), which the dialog names.
 */
export function DelayModal({
  opened,
  onClose,
  onApply,
  timeZone,
}: {
  opened: boolean;
  onClose: () => void;
  onApply: (until: number) => Promise<unknown>;
  timeZone: string;
}) {
  const t = useInboxT();
  const locale = useLocale();
  const nowS = Math.floor(Date.now() / 1000);
  const presets = snoozePresetTimes(nowS, timeZone);
  const [value, setValue] = useState(() => toZonedInput(presets.tomorrow, timeZone));
  const [applying, setApplying] = useState<string | null>(null);
  const until = fromZonedInput(value, timeZone);
  const valid = until !== null && until > nowS;
  const apply = async (key: string, at: number | null) => {
    if (at === null) return;
    setApplying(key);
    try {
      await onApply(at);
    } finally {
      setApplying(null);
    }
  };
  const when = (seconds: number) =>
    new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'ru-RU', {
      timeZone,
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(seconds * 1000));
  return (
    <Modal opened={opened} onClose={onClose} title={t('actions.delayTitle')} centered size="sm">
      <Stack gap="xs">
        {SNOOZE_PRESETS.map((preset) => (
          <Button
            key={preset}
            variant="light"
            justify="flex-start"
            h="auto"
            py={6}
            loading={applying === preset}
            disabled={applying !== null}
            onClick={() => void apply(preset, presets[preset])}
            data-testid={`snooze-${preset}`}
          >
            {/* The time under the name: both fit a phone's width. */}
            <Stack gap={0} align="flex-start">
              <Text fw={600} fz="sm" component="span">
                {t(`actions.snooze.${preset}`)}
              </Text>
              <Text fz="xs" c="dimmed" component="span">
                {when(presets[preset])}
              </Text>
            </Stack>
          </Button>
        ))}
        <TextInput
          mt="xs"
          type="datetime-local"
          label={t('actions.delayLabel')}
          description={t('actions.snooze.zone', { zone: timeZone })}
          value={value}
          min={toZonedInput(nowS, timeZone)}
          onChange={(event) => setValue(event.currentTarget.value)}
          data-testid="delay-input"
        />
        <Group justify="flex-end" mt="xs">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            disabled={!valid || applying !== null}
            loading={applying === 'custom'}
            onClick={() => void apply('custom', until)}
            data-testid="delay-apply"
          >
            {t('actions.delayApply')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
