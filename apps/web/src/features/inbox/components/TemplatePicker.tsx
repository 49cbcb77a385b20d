import { Button, Group, Paper, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { can, filterTemplates, slashQuery } from '@otklik/shared';
import { IconTemplate } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useRef, useState } from 'react';
import { renderTemplate, templateKeys, useTemplates } from '../../../api/templates';
import { showError } from '../../../components/notify';
import { useShell } from '../../../shell/ShellContext';
import { useInboxT } from '../i18n';

// The composer's reply templates (issue 16): `/` at the start of the reply (or the button) lists the
// space's and the user's templates filtered as they type; a choice is filled by the server for this
// conversation (author, account, operator, date, custom defaults; the network's variant) and replaces
// the `/query` (or is appended). Usage is counted when the reply is sent: `sent()`.

export interface TemplateTarget {
  space_id: number;
  item_id?: number;
  chat_id?: number;
}

export function useTemplatePicker(
  target: TemplateTarget | undefined,
  text: string,
  setText: (next: string) => void,
) {
  const t = useInboxT();
  const { actor } = useShell();
  const enabled = target !== undefined && can(actor, 'templates.use', target.space_id);
  const list = useTemplates(enabled);
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [active, setActive] = useState(0);
  const chosen = useRef<number | null>(null);
  const query = slashQuery(text);
  const shown = enabled && (query !== null || open);
  const options = filterTemplates(
    (list.data?.items ?? []).filter((x) => x.space_id === target?.space_id),
    query ?? '',
  ).slice(0, 20);
  // Typing changes the list: the highlight goes back to the first (best) match.
  const lastQuery = useRef(query);
  if (lastQuery.current !== query) {
    lastQuery.current = query;
    if (active !== 0) setActive(0);
  }
  const current = Math.min(active, Math.max(options.length - 1, 0));

  const pick = async (id: number) => {
    if (!target) return;
    setBusy(true);
    try {
      const { text: filled } = await renderTemplate(id, { item_id: target.item_id, chat_id: target.chat_id });
      chosen.current = id;
      setOpen(false);
      setText(query !== null || !text.trim() ? filled : `${text.trimEnd()}\n${filled}`);
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  };

  const element = !enabled ? null : (
    <Stack gap={4}>
      <Group gap="xs">
        <Button
          size="compact-xs"
          variant={shown ? 'light' : 'subtle'}
          color="gray"
          leftSection={<IconTemplate size={14} />}
          onClick={() => setOpen((v) => !v)}
          data-testid="template-picker"
        >
          {t('replyTemplates.pick')}
        </Button>
        {!shown && (
          <Text fz="xs" c="dimmed" visibleFrom="sm">
            {t('replyTemplates.pickHint')}
          </Text>
        )}
      </Group>
      {shown && (
        <Paper withBorder radius="sm" p={4} data-testid="template-options">
          <ScrollArea.Autosize mah={220}>
            {options.length === 0 ? (
              <Text fz="sm" c="dimmed" p="xs">
                {list.isPending ? '…' : t('replyTemplates.pickEmpty')}
              </Text>
            ) : (
              options.map((x, index) => (
                <UnstyledButton
                  key={x.id}
                  display="block"
                  w="100%"
                  p="xs"
                  disabled={busy}
                  onClick={() => void pick(x.id)}
                  data-testid="template-option"
                  data-active={index === current || undefined}
                  onMouseEnter={() => setActive(index)}
                  style={{
                    borderRadius: 4,
                    background: index === current ? 'var(--mantine-color-gray-1)' : undefined,
                  }}
                >
                  <Text fz="sm" fw={500} truncate="end">
                    {x.folder ? `${x.folder} / ${x.title}` : x.title}
                  </Text>
                  <Text fz="xs" c="dimmed" truncate="end">
                    {x.text}
                  </Text>
                </UnstyledButton>
              ))
            )}
          </ScrollArea.Autosize>
        </Paper>
      )}
    </Stack>
  );

  /** Arrows move through the offered templates, Enter picks, Escape closes; true when handled. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!shown || options.length === 0 || event.ctrlKey || event.metaKey || event.shiftKey) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + options.length) % options.length);
    } else if (event.key === 'Enter') {
      void pick(options[current]!.id);
    } else if (event.key === 'Escape' && open) {
      setOpen(false);
    } else {
      return false;
    }
    event.preventDefault();
    return true;
  };

  /** The template the text was made from: the reply carries it, and the server counts the use. */
  const chosenId = () => chosen.current;

  /** The reply went out: the next one starts without a template; usage counts are fresh. */
  const sent = () => {
    const id = chosen.current;
    chosen.current = null;
    if (id !== null) void queryClient.invalidateQueries({ queryKey: templateKeys.all });
  };

  return { element, sent, chosen: chosenId, onKeyDown };
}
