import {
  ActionIcon,
  Box,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { noteParts } from '@otklik/shared';
import { IconLock, IconPencil, IconTrash } from '@tabler/icons-react';
import { type KeyboardEvent, useMemo, useRef, useState } from 'react';
import {
  type Note,
  type NoteKind,
  useAddNote,
  useDeleteNote,
  useEditNote,
  useMentionable,
  useNotes,
} from '../../../api/notes';
import { ConfirmAction } from '../../../components/ConfirmAction';
import { showError } from '../../../components/notify';
import { useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';
import type { InboxData } from '../hooks/useInboxData';
import { useInboxT } from '../i18n';
import {
  type Colleague,
  decodeMentions,
  encodeMentions,
  insertMention,
  matchColleagues,
  mentionQuery,
} from '../model/notes';

// Internal notes on an item or chat (issue 13): colleagues only, with @mentions picked from those who
// may see the record. The author edits or deletes a note within the server's window; the history keeps
// every version.

export function NotesPanel({
  kind,
  id,
  data,
  nowS,
}: {
  kind: NoteKind;
  id: number;
  data: InboxData;
  nowS: number;
}) {
  const t = useInboxT();
  const notes = useNotes(kind, id);
  const colleagues = useMentionable(kind, id, true).data?.items ?? [];
  // Mentioning oneself notifies nobody: the picker offers the others.
  const others = colleagues.filter((c) => c.id !== data.meId);
  const nameOf = (userId: number) =>
    colleagues.find((c) => c.id === userId)?.name ?? data.memberName(userId) ?? `#${userId}`;
  const add = useAddNote(kind, id);
  const list = notes.data?.items ?? [];
  return (
    <Paper withBorder radius="md" p="md" data-testid="notes" bg="var(--mantine-color-yellow-light)">
      <Group gap={6} mb={4}>
        <IconLock size={16} aria-hidden />
        <Title order={2} fz="sm">
          {t('notes.title')}
        </Title>
      </Group>
      <Text fz="xs" c="dimmed" mb="sm">
        {t('notes.hint')}
      </Text>
      <Stack gap="sm">
        {list.length === 0 && !notes.isPending && (
          <Text fz="sm" c="dimmed">
            {t('notes.empty')}
          </Text>
        )}
        {list.map((note) => (
          <NoteView
            key={note.id}
            kind={kind}
            recordId={id}
            note={note}
            mine={note.user?.id === data.meId}
            nowS={nowS}
            nameOf={nameOf}
            colleagues={others}
          />
        ))}
        <NoteEditor
          colleagues={others}
          submitLabel={t('notes.add')}
          busy={add.isPending}
          onSubmit={async (text) => {
            await add.mutateAsync(text);
            return true;
          }}
        />
      </Stack>
    </Paper>
  );
}

function NoteView({
  kind,
  recordId,
  note,
  mine,
  nowS,
  nameOf,
  colleagues,
}: {
  kind: NoteKind;
  recordId: number;
  note: Note;
  mine: boolean;
  nowS: number;
  nameOf: (id: number) => string;
  colleagues: Colleague[];
}) {
  const t = useInboxT();
  const locale = useLocale();
  const [editing, setEditing] = useState(false);
  const edit = useEditNote(kind, recordId);
  const remove = useDeleteNote(kind, recordId);
  const editable = mine && note.deleted_at === null && nowS < note.editable_until;
  const meta = [
    note.user?.name,
    formatDateTime(note.created_at, locale),
    note.edited_at ? t('notes.edited') : null,
  ]
    .filter(Boolean)
    .join(' · ');
  if (note.deleted_at !== null)
    return (
      <Text fz="sm" c="dimmed" fs="italic" data-testid="note" data-deleted="true">
        {t('notes.deleted')} · {meta}
      </Text>
    );
  if (editing) {
    const initial = decodeMentions(note.text, nameOf);
    return (
      <NoteEditor
        colleagues={colleagues}
        initial={initial}
        submitLabel={t('notes.save')}
        busy={edit.isPending}
        onCancel={() => setEditing(false)}
        onSubmit={async (text) => {
          await edit.mutateAsync({ noteId: note.id, text });
          setEditing(false);
          return true;
        }}
      />
    );
  }
  return (
    <Box data-testid="note">
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Text fz="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="note-text">
          {noteParts(note.text).map((part, index) =>
            part.kind === 'text' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed text
              <span key={index}>{part.text}</span>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts of one fixed text
              <Text key={index} span fw={700} c="blue" data-testid="note-mention">
                @{nameOf(part.userId)}
              </Text>
            ),
          )}
        </Text>
        {editable && (
          <Group gap={2} wrap="nowrap">
            <Tooltip label={t('notes.edit')}>
              <ActionIcon
                variant="subtle"
                size="sm"
                aria-label={t('notes.edit')}
                onClick={() => setEditing(true)}
              >
                <IconPencil size={14} />
              </ActionIcon>
            </Tooltip>
            <ConfirmAction
              title={t('notes.delete')}
              message={t('notes.deleteConfirm')}
              confirmLabel={t('notes.delete')}
              onConfirm={() => remove.mutateAsync(note.id)}
            >
              {(open) => (
                <Tooltip label={t('notes.delete')}>
                  <ActionIcon
                    variant="subtle"
                    size="sm"
                    color="red"
                    aria-label={t('notes.delete')}
                    onClick={open}
                  >
                    <IconTrash size={14} />
                  </ActionIcon>
                </Tooltip>
              )}
            </ConfirmAction>
          </Group>
        )}
      </Group>
      <Text fz="xs" c="dimmed">
        {meta}
      </Text>
    </Box>
  );
}

/** The note text box with the `@` picker: arrows move, Enter or Tab picks, Escape closes. */
function NoteEditor({
  colleagues,
  initial,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
}: {
  colleagues: Colleague[];
  initial?: { text: string; picked: Colleague[] };
  submitLabel: string;
  busy: boolean;
  onSubmit: (text: string) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const t = useInboxT();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState(initial?.text ?? '');
  const [picked, setPicked] = useState<Colleague[]>(initial?.picked ?? []);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [closedAt, setClosedAt] = useState<number | null>(null);
  const query = mentionQuery(text, caret);
  const open = query !== null && closedAt !== query.start;
  const options = useMemo(
    () => (query ? matchColleagues(colleagues, query.query) : []),
    [colleagues, query?.query, query],
  );

  const pick = (colleague: Colleague) => {
    if (!query) return;
    const next = insertMention(text, query, colleague);
    setText(next.text);
    setPicked((list) => (list.some((c) => c.id === colleague.id) ? list : [...list, colleague]));
    setCaret(next.caret);
    setActive(0);
    // The caret goes after the inserted name once React has put the new text in the field — unless the
    // user typed on meanwhile (a busy machine may run this frame late): moving it then would put their
    // next letters in the middle of what they typed.
    requestAnimationFrame(() => {
      const field = ref.current;
      if (!field) return;
      field.focus();
      if (field.value === next.text) field.setSelectionRange(next.caret, next.caret);
    });
  };

  const submit = async () => {
    const encoded = encodeMentions(text, picked);
    if (!encoded) return;
    try {
      if (await onSubmit(encoded)) {
        setText('');
        setPicked([]);
        setCaret(0);
      }
    } catch (error) {
      showError(error);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open && options.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => (i + step + options.length) % options.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        pick(options[Math.min(active, options.length - 1)]!);
        return;
      }
    }
    if (open && event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setClosedAt(query!.start);
      return;
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  };

  const listId = useMemo(() => `note-mentions-${Math.random().toString(36).slice(2)}`, []);
  return (
    <Stack gap={6}>
      {/* Above the box: below it, the sticky reply box would cover the list. */}
      {open && (
        <Paper
          withBorder
          shadow="sm"
          p={4}
          id={listId}
          role="listbox"
          aria-label={t('notes.picker')}
          data-testid="mention-picker"
        >
          {options.length === 0 ? (
            <Text fz="sm" c="dimmed" p={6}>
              {t('notes.noColleague')}
            </Text>
          ) : (
            options.map((colleague, index) => (
              <UnstyledButton
                key={colleague.id}
                role="option"
                aria-selected={index === active}
                tabIndex={-1}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(colleague)}
                data-testid="mention-option"
                style={{
                  display: 'block',
                  width: '100%',
                  padding: '6px 8px',
                  borderRadius: 4,
                  background: index === active ? 'var(--mantine-color-blue-light)' : undefined,
                }}
              >
                <Text fz="sm">{colleague.name}</Text>
              </UnstyledButton>
            ))
          )}
        </Paper>
      )}
      <Textarea
        ref={ref}
        aria-label={t('notes.label')}
        placeholder={t('notes.placeholder')}
        autosize
        minRows={2}
        maxRows={8}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          setCaret(event.currentTarget.selectionStart ?? event.currentTarget.value.length);
          setActive(0);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart ?? 0)}
        onKeyDown={onKeyDown}
        // A textarea is a textbox: it may point at the open list (aria-controls) but has no aria-expanded
        // (axe aria-allowed-attr).
        aria-controls={open ? listId : undefined}
        aria-autocomplete="list"
        data-testid="note-input"
      />
      <Group justify="flex-end" gap="xs">
        {onCancel && (
          <Button variant="default" size="xs" onClick={onCancel}>
            {t('notes.cancel')}
          </Button>
        )}
        <Button
          size="xs"
          color="yellow"
          c="dark"
          leftSection={<IconLock size={14} />}
          loading={busy}
          disabled={text.trim() === ''}
          onClick={() => void submit()}
          data-testid="note-submit"
        >
          {submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}
