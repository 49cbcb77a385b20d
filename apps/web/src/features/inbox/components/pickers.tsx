import {
  ActionIcon,
  Button,
  Group,
  MultiSelect,
  Popover,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { type ProviderEntry, RECENT_EMOJI_PER_PROVIDER } from '@otklik/shared';
import { IconMoodSmile } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useRememberEmoji } from '../../../api/inbox';
import type { Reaction } from '../../../api/inboxTypes';
import { useShell } from '../../../shell/ShellContext';
import type { InboxData } from '../hooks/useInboxData';
import { useInboxT } from '../i18n';

import { companyTagsOnly, tagOptions } from '../model/tags';

// Tag picker, assignee picker and reactions picker of an item or chat page.

export function TagPicker({
  value,
  spaceId,
  objectId,
  data,
  onChange,
  disabled,
}: {
  value: number[];
  spaceId: number;
  /** The record's account: its company's tags_mode decides which tags are offered. */
  objectId?: number;
  data: InboxData;
  onChange: (ids: number[]) => void;
  disabled?: boolean;
}) {
  const t = useInboxT();
  const companyOnly = companyTagsOnly(objectId, data);
  const options = useMemo(
    () => tagOptions([...data.tagsById.values()], spaceId, companyOnly, value),
    [data.tagsById, spaceId, companyOnly, value],
  );
  return (
    <MultiSelect
      label={t('actions.tags')}
      placeholder={value.length === 0 ? t('actions.tagsPlaceholder') : undefined}
      data={options}
      value={value.map(String)}
      onChange={(ids) => onChange(ids.map(Number))}
      searchable
      clearable
      disabled={disabled}
      nothingFoundMessage={t('actions.noTags')}
      data-testid="tag-picker"
    />
  );
}

export function AssigneePicker({
  value,
  spaceId,
  data,
  onChange,
  disabled,
}: {
  value: number | null;
  spaceId: number;
  data: InboxData;
  onChange: (userId: number | null) => void;
  disabled?: boolean;
}) {
  const t = useInboxT();
  const options = [
    { value: 'none', label: t('actions.assignNone') },
    { value: String(data.meId), label: `${t('actions.assignMe')} (${data.memberName(data.meId) ?? ''})` },
    ...data.members
      .filter((m) => m.id !== data.meId && (m.space_id === spaceId || m.space_id === 0))
      .map((m) => ({ value: String(m.id), label: m.name })),
  ];
  if (value !== null && !options.some((o) => o.value === String(value))) {
    options.push({ value: String(value), label: data.memberName(value) ?? `#${value}` });
  }
  return (
    <Select
      label={t('actions.assign')}
      data={options}
      value={value === null ? 'none' : String(value)}
      onChange={(next) => onChange(!next || next === 'none' ? null : Number(next))}
      allowDeselect={false}
      disabled={disabled}
      data-testid="assignee-picker"
    />
  );
}

/** Reactions shown on a record: the value and how many, ours highlighted. */
export function ReactionsView({ reactions }: { reactions: Reaction[] }) {
  const t = useInboxT();
  if (reactions.length === 0) return null;
  return (
    <Group gap={4}>
      {reactions.map((reaction) => (
        <Text
          key={reaction.value}
          fz="xs"
          px={6}
          py={1}
          bg={reaction.own ? 'indigo.0' : 'gray.1'}
          c={reaction.own ? 'indigo.8' : undefined}
          style={{ borderRadius: 12 }}
          title={reaction.own ? t('item.yourReply') : undefined}
          data-testid="reaction"
        >
          {displayReaction(reaction.value)} {reaction.count > 1 ? reaction.count : ''}
        </Text>
      ))}
    </Group>
  );
}

/** VK reactions are numeric ids: shown by number; emoji are shown as they are. */
export function displayReaction(value: string | number): string {
  return typeof value === 'number' || /^\d+$/.test(String(value)) ? `#${value}` : String(value);
}

/**
 * The network's reaction set (docs/product/entities.md, limits.md: VK ids, Telegram ~73 emoji, WhatsApp 12) with the user's recent
 * emoji for this network first (docs/product/api.md PUT /v1/me/emoji keeps 18).
 */
export function ReactionPicker({
  entry,
  current,
  onPick,
  disabled,
  size = 'lg',
}: {
  entry: ProviderEntry;
  current: string | null;
  onPick: (value: string | number | null) => void;
  disabled?: boolean;
  size?: 'sm' | 'lg';
}) {
  const t = useInboxT();
  const { config } = useShell();
  const remember = useRememberEmoji();
  const [opened, setOpened] = useState(false);
  const set = entry.reactions?.items ?? [];
  const allowed = new Set(set.map((item) => String(item.value)));
  const recent = (config.emoji[entry.id] ?? []).map((e) => e.char).filter((char) => allowed.has(char));

  const pick = (value: string | number | null) => {
    setOpened(false);
    onPick(value);
    if (value !== null && typeof value === 'string') {
      const next = [value, ...recent.filter((char) => char !== value)].slice(0, RECENT_EMOJI_PER_PROVIDER);
      remember.mutate({ [entry.id]: next });
    }
  };

  const cell = (value: string | number) => (
    <UnstyledButton
      key={String(value)}
      onClick={() => pick(value)}
      aria-label={String(value)}
      aria-pressed={current === String(value)}
      p={4}
      fz={20}
      ta="center"
      bg={current === String(value) ? 'indigo.1' : undefined}
      style={{ borderRadius: 6 }}
      data-testid="reaction-option"
    >
      {displayReaction(value)}
    </UnstyledButton>
  );

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-start"
      shadow="md"
      width={280}
      withinPortal
    >
      <Popover.Target>
        <Tooltip label={t('actions.react')}>
          <ActionIcon
            variant={size === 'lg' ? 'default' : 'subtle'}
            color="gray"
            size={size}
            onClick={() => setOpened((o) => !o)}
            disabled={disabled}
            aria-label={t('actions.react')}
            data-testid="reaction-picker"
          >
            <IconMoodSmile size={size === 'lg' ? 18 : 14} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          {recent.length > 0 && (
            <>
              <Text fz="xs" c="dimmed">
                {t('actions.recent')}
              </Text>
              <SimpleGrid cols={6} spacing={2}>
                {recent.map(cell)}
              </SimpleGrid>
            </>
          )}
          <Text fz="xs" c="dimmed">
            {t('actions.reactions')}
          </Text>
          <SimpleGrid cols={6} spacing={2} mah={220} style={{ overflowY: 'auto' }}>
            {set.map((item) => cell(item.value))}
          </SimpleGrid>
          {current && (
            <Button variant="subtle" size="compact-xs" color="gray" onClick={() => pick(null)}>
              {t('actions.removeReaction')}
            </Button>
          )}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
