import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  CloseButton,
  FileButton,
  Group,
  Menu,
  Paper,
  Progress,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { SEND_UNDO_SECONDS } from '@otklik/shared';
import { IconArrowBackUp, IconChevronDown, IconLock, IconPaperclip, IconSend } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { uploadAttachment } from '../../../api/inbox';
import type { Attachment } from '../../../api/inboxTypes';
import { showError } from '../../../components/notify';
import { useInboxT } from '../i18n';
import { checkFile, composerLimits, UPLOAD_ACCEPT } from '../model/composer';
import { notifyDone, notifyProblem } from '../notify';
import { AiSuggest } from './AiSuggest';
import { type TemplateTarget, useTemplatePicker } from './TemplatePicker';

// The reply box (docs/product/validation.md limits while typing): characters (and bytes) left for this network and kind, the
// caption limit once files are attached, files checked for type, size (5 MB images, 10 MB video) and
// count before upload, and the 'Direct' toggle for comments where the network has it.

export type ReplyMode = 'public' | 'direct';

/** What onSend may return: a send the server holds for SEND_UNDO_SECONDS, and how to take it back (its text). */
export interface HeldSend {
  undo: () => Promise<string>;
}
const isHeld = (value: unknown): value is HeldSend =>
  typeof value === 'object' && value !== null && typeof (value as HeldSend).undo === 'function';

export interface ComposerDraft {
  text: string;
  attachments: Array<{ url: string; name?: string }>;
  mode: ReplyMode;
  /** "Send and close" rather than "Send" (only where the box offers the choice). */
  close: boolean;
  /** The reply template the text was made from, if one was picked. */
  template_id?: number;
}

interface PendingFile {
  key: number;
  name: string;
  progress: number;
  attachment?: Attachment;
}

export interface ComposerProps {
  provider: string | undefined;
  /** 'comment' for public replies, 'message' for chats. */
  kind: 'comment' | 'message';
  /** Offer the 'Direct' mode (one private message to the commenter). */
  allowDirect?: boolean;
  /** Someone else is answering: the box is locked. */
  lockedBy?: string | null;
  /** The text changed (typing takes the lock, an emptied or sent box lets go: useTypingLock). */
  onTextChange?: (text: string) => void;
  /** Offered while a colleague holds the box, to a role that may take it from them. */
  onTakeOver?: () => void;
  /** Resolves to a HeldSend when the server holds the send: the box offers "Undo" while it is held. */
  onSend: (draft: ComposerDraft) => Promise<unknown>;
  placeholder?: string;
  /** Offer "Send" and "Send and close"; the main one is the user's default, the other becomes it once used. */
  closeChoice?: { close: boolean; remember: (close: boolean) => void };
  /** The conversation reply templates are filled for (none: no template picker). */
  templateTarget?: TemplateTarget;
}

let fileKey = 0;

export function Composer({
  provider,
  kind,
  allowDirect = false,
  lockedBy = null,
  onTextChange,
  onTakeOver,
  onSend,
  placeholder,
  closeChoice,
  templateTarget,
}: ComposerProps) {
  const t = useInboxT();
  const [text, setText] = useState('');
  const [mode, setMode] = useState<ReplyMode>('public');
  const [files, setFiles] = useState<PendingFile[]>([]);
  const [sending, setSending] = useState(false);
  const resetRef = useRef<() => void>(null);
  const [held, setHeld] = useState<{ send: HeldSend; left: number } | null>(null);
  const changeText = (next: string) => {
    setText(next);
    onTextChange?.(next);
  };
  const templates = useTemplatePicker(templateTarget, text, changeText);

  // The countdown of a held send; at 0 the server sends it and the offer goes.
  useEffect(() => {
    if (!held) return;
    const timer = setTimeout(
      () => setHeld((h) => (h && h.left > 1 ? { ...h, left: h.left - 1 } : null)),
      1000,
    );
    return () => clearTimeout(timer);
  }, [held]);

  const undoHeld = async () => {
    if (!held) return;
    const { send: heldSend } = held;
    setHeld(null);
    try {
      const back = await heldSend.undo();
      changeText(back);
      notifyDone(t('composer.undone'));
    } catch (error) {
      showError(error);
    }
  };

  const direct = allowDirect && mode === 'direct';
  const limitKind = direct ? 'message' : kind;
  const attached = direct ? [] : files;
  const limits = composerLimits(provider, limitKind, text, attached.length);
  const uploading = attached.some((f) => !f.attachment);
  const locked = lockedBy !== null;
  const canSend = !locked && !sending && !uploading && limits.problem === null;

  const addFiles = async (picked: File[]) => {
    resetRef.current?.();
    let count = files.length;
    for (const file of picked) {
      const problem = checkFile(file, count, limits.maxAttachments);
      if (problem) {
        if (problem.code === 'upload.tooLarge') notifyProblem(problem.code, { limit: problem.limitMb });
        else if (problem.code === 'reply.tooManyAttachments')
          notifyProblem(problem.code, { limit: problem.limit });
        else notifyProblem(problem.code);
        continue;
      }
      count++;
      const key = ++fileKey;
      setFiles((list) => [...list, { key, name: file.name, progress: 0 }]);
      try {
        const attachment = await uploadAttachment(file, (progress) =>
          setFiles((list) => list.map((f) => (f.key === key ? { ...f, progress } : f))),
        );
        setFiles((list) => list.map((f) => (f.key === key ? { ...f, progress: 1, attachment } : f)));
      } catch (error) {
        setFiles((list) => list.filter((f) => f.key !== key));
        showError(error);
      }
    }
  };

  const send = async (close = closeChoice?.close ?? false) => {
    if (!canSend) return;
    setSending(true);
    try {
      const result = await onSend({
        text: text.trim(),
        attachments: attached.flatMap((f) => (f.attachment ? [{ url: f.attachment.url, name: f.name }] : [])),
        mode: direct ? 'direct' : 'public',
        close,
        ...(!direct && templates.chosen() !== null ? { template_id: templates.chosen()! } : {}),
      });
      if (closeChoice && close !== closeChoice.close) closeChoice.remember(close);
      templates.sent();
      changeText('');
      setFiles([]);
      if (isHeld(result)) setHeld({ send: result, left: SEND_UNDO_SECONDS });
    } catch (error) {
      showError(error);
    } finally {
      setSending(false);
    }
  };

  if (locked) {
    return (
      <Alert
        color="pink"
        variant="light"
        icon={<IconLock size={18} />}
        data-testid="composer-locked"
        title={t('composer.lockedBy', { name: lockedBy })}
      >
        <Group justify="space-between" gap="xs">
          <Text fz="sm">{t('composer.lockedHint', { name: lockedBy })}</Text>
          {onTakeOver && (
            <Button
              size="xs"
              variant="light"
              color="pink"
              onClick={onTakeOver}
              title={t('composer.takeOverHint', { name: lockedBy })}
              data-testid="composer-takeover"
            >
              {t('composer.takeOver')}
            </Button>
          )}
        </Group>
      </Alert>
    );
  }

  const over = limits.charsLeft !== null && limits.charsLeft < 0;
  const bytesOver = limits.bytesLeft !== null && limits.bytesLeft < 0;
  const placeholderText =
    placeholder ??
    (direct
      ? t('composer.placeholderDirect')
      : kind === 'comment'
        ? t('composer.placeholderComment')
        : t('composer.placeholderMessage'));

  return (
    <Paper withBorder radius="md" p="sm" data-testid="composer">
      <Stack gap="xs">
        {held && (
          <Alert color="indigo" variant="light" p="xs" data-testid="composer-held">
            <Group justify="space-between" gap="xs" wrap="nowrap">
              <Text fz="sm" aria-live="polite">
                {t('composer.held', { count: held.left })}
              </Text>
              <Button
                size="xs"
                variant="white"
                leftSection={<IconArrowBackUp size={14} />}
                onClick={() => void undoHeld()}
                data-testid="composer-undo"
              >
                {t('composer.undo')}
              </Button>
            </Group>
          </Alert>
        )}
        {allowDirect && (
          <Group gap="xs" justify="space-between" wrap="wrap">
            <SegmentedControl
              size="xs"
              value={mode}
              onChange={(value) => setMode(value as ReplyMode)}
              data={[
                { value: 'public', label: t('composer.modePublic') },
                { value: 'direct', label: t('composer.modeDirect') },
              ]}
              aria-label={t('composer.mode')}
              data-testid="composer-mode"
            />
            {direct && (
              <Text fz="xs" c="dimmed">
                {t('composer.directHint')}
              </Text>
            )}
          </Group>
        )}
        {templates.element}
        <AiSuggest target={templateTarget} text={text} onText={changeText} disabled={sending} />
        <Textarea
          value={text}
          onChange={(event) => changeText(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (templates.onKeyDown(event)) return;
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              void send();
            }
          }}
          placeholder={placeholderText}
          aria-label={placeholderText}
          autosize
          minRows={2}
          maxRows={12}
          error={over || bytesOver}
          data-testid="composer-text"
        />
        {attached.length > 0 && (
          <Group gap={6}>
            {attached.map((file) => (
              <Badge
                key={file.key}
                variant="light"
                color={file.attachment ? 'indigo' : 'gray'}
                style={{ textTransform: 'none' }}
                rightSection={
                  <CloseButton
                    size="xs"
                    aria-label={t('composer.removeAttachment', { name: file.name })}
                    onClick={() => setFiles((list) => list.filter((f) => f.key !== file.key))}
                  />
                }
                data-testid="composer-attachment"
              >
                <Box maw={160} style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                  {file.name}
                </Box>
                {!file.attachment && <Progress value={file.progress * 100} size="xs" mt={2} />}
              </Badge>
            ))}
          </Group>
        )}
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Group gap="xs" wrap="nowrap" miw={0}>
            {!direct &&
              (limits.maxAttachments > 0 ? (
                <FileButton
                  onChange={(picked) => void addFiles(picked)}
                  accept={UPLOAD_ACCEPT}
                  multiple
                  resetRef={resetRef}
                >
                  {(props) => (
                    <Tooltip
                      label={t('composer.attachLimit', { count: files.length, max: limits.maxAttachments })}
                    >
                      <ActionIcon
                        {...props}
                        variant="subtle"
                        color="gray"
                        size="lg"
                        aria-label={t('composer.attach')}
                        disabled={files.length >= limits.maxAttachments}
                        data-testid="composer-attach"
                      >
                        <IconPaperclip size={18} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </FileButton>
              ) : null)}
            <Stack gap={0} miw={0}>
              {limits.charsLeft !== null && (
                <Text fz="xs" c={over ? 'red' : 'dimmed'} data-testid="composer-chars" aria-live="polite">
                  {over
                    ? t('composer.charsOver', { count: -limits.charsLeft })
                    : t('composer.charsLeft', { count: limits.charsLeft })}
                </Text>
              )}
              {limits.bytesLeft !== null && (
                <Text fz="xs" c={bytesOver ? 'red' : 'dimmed'} data-testid="composer-bytes">
                  {bytesOver
                    ? t('composer.bytesOver', { count: -limits.bytesLeft })
                    : t('composer.bytesLeft', { count: limits.bytesLeft })}
                </Text>
              )}
              {attached.length > 0 &&
                limits.charLimit !== null &&
                composerLimits(provider, limitKind, text, 0).charLimit !== limits.charLimit && (
                  <Text fz="xs" c="dimmed">
                    {t('composer.captionNote')}
                  </Text>
                )}
            </Stack>
          </Group>
          <Group gap={0} wrap="nowrap" style={{ flexShrink: 0 }}>
            <Tooltip label={t('composer.sendHint')} openDelay={500}>
              <Button
                onClick={() => void send()}
                disabled={!canSend}
                loading={sending}
                rightSection={<IconSend size={16} />}
                style={
                  closeChoice && !direct ? { borderTopRightRadius: 0, borderBottomRightRadius: 0 } : undefined
                }
                data-testid="composer-send"
                data-close={closeChoice && !direct ? String(closeChoice.close) : undefined}
              >
                {closeChoice?.close && !direct ? t('composer.sendClose') : t('composer.send')}
              </Button>
            </Tooltip>
            {closeChoice && !direct && (
              <Menu position="top-end" withinPortal>
                <Menu.Target>
                  <ActionIcon
                    size={36}
                    variant="filled"
                    disabled={!canSend}
                    style={{
                      borderTopLeftRadius: 0,
                      borderBottomLeftRadius: 0,
                      borderLeft: '1px solid rgba(255,255,255,.4)',
                    }}
                    aria-label={t('composer.sendOptions')}
                    data-testid="composer-send-options"
                  >
                    <IconChevronDown size={16} />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => void send(!closeChoice.close)} data-testid="composer-send-other">
                    {closeChoice.close ? t('composer.send') : t('composer.sendClose')}
                  </Menu.Item>
                  <Menu.Label>{t('composer.sendOtherHint')}</Menu.Label>
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}
