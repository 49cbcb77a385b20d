import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  CloseButton,
  FileButton,
  Group,
  Paper,
  Progress,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { IconLock, IconPaperclip, IconSend } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { uploadAttachment } from '../../../api/inbox';
import type { Attachment } from '../../../api/inboxTypes';
import { showError } from '../../../components/notify';
import { useInboxT } from '../i18n';
import { checkFile, composerLimits, UPLOAD_ACCEPT } from '../model/composer';
import { notifyProblem } from '../notify';

// The reply box (SPEC §5 limits while typing): characters (and bytes) left for this network and kind, the
// caption limit once files are attached, files checked for type, size (5 MB images, 10 MB video) and
// count before upload, and the 'Direct' toggle for comments where the network has it.

export type ReplyMode = 'public' | 'direct';

export interface ComposerDraft {
  text: string;
  attachments: Array<{ url: string; name?: string }>;
  mode: ReplyMode;
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
  onSend: (draft: ComposerDraft) => Promise<unknown>;
  placeholder?: string;
}

let fileKey = 0;

export function Composer({
  provider,
  kind,
  allowDirect = false,
  lockedBy = null,
  onSend,
  placeholder,
}: ComposerProps) {
  const t = useInboxT();
  const [text, setText] = useState('');
  const [mode, setMode] = useState<ReplyMode>('public');
  const [files, setFiles] = useState<PendingFile[]>([]);
  const [sending, setSending] = useState(false);
  const resetRef = useRef<() => void>(null);

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

  const send = async () => {
    if (!canSend) return;
    setSending(true);
    try {
      await onSend({
        text: text.trim(),
        attachments: attached.flatMap((f) => (f.attachment ? [{ url: f.attachment.url, name: f.name }] : [])),
        mode: direct ? 'direct' : 'public',
      });
      setText('');
      setFiles([]);
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
        {t('composer.lockedHint', { name: lockedBy })}
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
        <Textarea
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          onKeyDown={(event) => {
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
          <Tooltip label={t('composer.sendHint')} openDelay={500}>
            <Button
              onClick={() => void send()}
              disabled={!canSend}
              loading={sending}
              rightSection={<IconSend size={16} />}
              style={{ flexShrink: 0 }}
              data-testid="composer-send"
            >
              {t('composer.send')}
            </Button>
          </Tooltip>
        </Group>
      </Stack>
    </Paper>
  );
}
