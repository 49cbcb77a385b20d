import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  CloseButton,
  FileButton,
  Grid,
  Group,
  Menu,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Timeline,
  Title,
} from '@mantine/core';
import {
  ISSUE_ATTACHMENT_ACCEPT,
  ISSUE_ATTACHMENT_MAX_BYTES,
  ISSUE_ATTACHMENT_TYPES,
  ISSUE_ATTACHMENTS_MAX,
  ISSUE_PRIORITIES,
  type IssuePageDto,
  type IssueUploadDto,
} from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconAt, IconPaperclip } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useMembers } from '../../api/inbox';
import { uploadIssueFile, useCommentIssue, useDeleteIssue, useIssue, useUpdateIssue } from '../../api/issues';
import { showError } from '../../components/notify';
import { RecordLoading } from '../../shell/RecordNotFound';
import { useShell } from '../../shell/ShellContext';
import { ProxiedFile } from '../inbox/components/content';
import { notifyDone, notifyProblem } from '../inbox/notify';
import {
  formatMoment,
  fromLocalInput,
  linkPath,
  mentionsIn,
  STATUS_COLOR,
  statusesOffered,
  toLocalInput,
} from './model';

/** `issue-page` (/issues/:id): the task, its links, comments with @mentions and its history. */
export default function IssueScreen() {
  const id = Number(useParams().id);
  const issue = useIssue(id);
  const { t } = useTranslation();
  if (!issue.data) return <RecordLoading query={issue} notFoundTitle={t('shell.issues.notFound')} />;
  return <IssuePage key={issue.data.updated_at} issue={issue.data} />;
}

function IssuePage({ issue }: { issue: IssuePageDto }) {
  const { t, i18n } = useTranslation();
  const { objects, space } = useShell();
  const navigate = useNavigate();
  const members = useMembers();
  const update = useUpdateIssue(issue.id);
  const remove = useDeleteIssue();
  const people = (members.data ?? []).filter((m) => m.space_id === issue.space_id);
  const departments = (objects?.departments ?? []).filter((d) => d.space_id === issue.space_id);
  const nameOf = (userId: number | null) =>
    userId === null ? t('shell.issues.system') : (people.find((m) => m.id === userId)?.name ?? `#${userId}`);
  const [draft, setDraft] = useState({
    title: issue.title,
    description: issue.description,
    status: issue.status as string,
    priority: issue.priority as string,
    assignee: issue.assigned_user_id === null ? null : String(issue.assigned_user_id),
    department: issue.department_id === null ? null : String(issue.department_id),
    due: toLocalInput(issue.due_at),
  });
  const edit = !issue.can_edit;
  const save = (patch?: Record<string, unknown>) =>
    update.mutate(
      (patch ?? {
        title: draft.title,
        description: draft.description,
        status: draft.status,
        priority: draft.priority,
        assigned_user_id: draft.assignee ? Number(draft.assignee) : null,
        department_id: draft.department ? Number(draft.department) : null,
        due_at: fromLocalInput(draft.due),
      }) as Parameters<typeof update.mutate>[0],
      { onSuccess: () => notifyDone(t('shell.issues.saved')), onError: showError },
    );
  const historyValue = (field: string, value: string | null) => {
    if (value === null) return '—';
    if (field === 'status') return t(`shell.issues.status.${value as 'new'}`, value);
    if (field === 'priority') return t(`shell.issues.priority.${value as 'low'}`, value);
    if (field === 'assigned_user_id') return nameOf(Number(value));
    if (field === 'department_id') return departments.find((d) => String(d.id) === value)?.name ?? value;
    if (field === 'due_at' || field === 'expired') return formatMoment(value, i18n.language);
    return value;
  };

  return (
    <Stack gap="md" data-testid="issue-page" data-issue-id={issue.id}>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={4} miw={0} style={{ flex: '1 1 320px' }}>
          <Title order={1} fz={{ base: 20, sm: 24 }} data-testid="issue-page-title">
            {issue.title}
          </Title>
          <Group gap="xs">
            <Badge color={STATUS_COLOR[issue.status]} variant="light" data-testid="issue-status">
              {t(`shell.issues.status.${issue.status}`)}
            </Badge>
            {issue.is_expired && (
              <Badge color="red" data-testid="issue-expired">
                {t('shell.issues.field.expired')}
              </Badge>
            )}
            <Text fz="xs" c="dimmed">
              {t('shell.issues.field.createdBy')}: {nameOf(issue.created_by)},{' '}
              {formatMoment(issue.created_at, i18n.language)}
            </Text>
          </Group>
        </Stack>
        {issue.can_edit && (
          <Group gap="xs">
            <Button
              variant="light"
              color={issue.status === 'closed' ? 'blue' : 'green'}
              onClick={() => save({ status: issue.status === 'closed' ? 'inprogress' : 'closed' })}
              data-testid="issue-toggle-close"
            >
              {issue.status === 'closed' ? t('shell.issues.reopen') : t('shell.issues.close')}
            </Button>
            {issue.can_delete && (
              <Button
                variant="subtle"
                color="red"
                onClick={() => {
                  if (!window.confirm(t('shell.issues.deleteConfirm'))) return;
                  remove.mutate(issue.id, {
                    onSuccess: () => {
                      notifyDone(t('shell.issues.deleted'));
                      void navigate(pathFor('issues'));
                    },
                    onError: showError,
                  });
                }}
              >
                {t('shell.issues.delete')}
              </Button>
            )}
          </Group>
        )}
      </Group>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            <Paper withBorder p="sm">
              <Stack gap="sm">
                <TextInput
                  label={t('shell.issues.field.title')}
                  value={draft.title}
                  disabled={edit}
                  onChange={(e) => setDraft({ ...draft, title: e.currentTarget.value })}
                />
                <Textarea
                  label={t('shell.issues.field.description')}
                  value={draft.description}
                  disabled={edit}
                  autosize
                  minRows={3}
                  maxRows={12}
                  onChange={(e) => setDraft({ ...draft, description: e.currentTarget.value })}
                />
                <Group grow wrap="wrap" align="flex-start">
                  <Select
                    label={t('shell.issues.field.status')}
                    data={statusesOffered(space(issue.space_id)?.settings, issue.status).map((s) => ({
                      value: s,
                      label: t(`shell.issues.status.${s}`),
                    }))}
                    value={draft.status}
                    disabled={edit}
                    allowDeselect={false}
                    onChange={(v) => v && setDraft({ ...draft, status: v })}
                    miw={150}
                    data-testid="issue-status-select"
                  />
                  <Select
                    label={t('shell.issues.field.priority')}
                    data={ISSUE_PRIORITIES.map((p) => ({ value: p, label: t(`shell.issues.priority.${p}`) }))}
                    value={draft.priority}
                    disabled={edit}
                    allowDeselect={false}
                    onChange={(v) => v && setDraft({ ...draft, priority: v })}
                    miw={150}
                  />
                </Group>
                <Group grow wrap="wrap" align="flex-start">
                  <Select
                    label={t('shell.issues.field.assignee')}
                    placeholder={t('shell.issues.unassigned')}
                    data={people.map((m) => ({ value: String(m.id), label: m.name }))}
                    value={draft.assignee}
                    disabled={edit}
                    clearable
                    searchable
                    onChange={(v) => setDraft({ ...draft, assignee: v })}
                    miw={150}
                    data-testid="issue-page-assignee"
                  />
                  <Select
                    label={t('shell.issues.field.department')}
                    placeholder={t('shell.issues.noDepartment')}
                    data={departments.map((d) => ({ value: String(d.id), label: d.name }))}
                    value={draft.department}
                    disabled={edit}
                    clearable
                    onChange={(v) => setDraft({ ...draft, department: v })}
                    miw={150}
                  />
                  <TextInput
                    type="datetime-local"
                    label={t('shell.issues.field.due')}
                    value={draft.due}
                    disabled={edit}
                    onChange={(e) => setDraft({ ...draft, due: e.currentTarget.value })}
                    miw={150}
                    data-testid="issue-page-due"
                  />
                </Group>
                {issue.can_edit && (
                  <Group justify="flex-end">
                    <Button onClick={() => save()} loading={update.isPending} data-testid="issue-save">
                      {t('shell.issues.save')}
                    </Button>
                  </Group>
                )}
              </Stack>
            </Paper>
            {issue.links.length > 0 && (
              <Paper withBorder p="sm">
                <Text fw={600} fz="sm" mb={4}>
                  {t('shell.issues.field.links')}
                </Text>
                <Stack gap={4}>
                  {issue.links.map((link) => (
                    <Anchor
                      key={`${link.kind}:${link.id}`}
                      component={Link}
                      to={linkPath(link)}
                      fz="sm"
                      data-testid="issue-link"
                    >
                      {t(`shell.issues.link.${link.kind}`, { id: link.id })}
                      {link.label ? ` — ${link.label}` : ''}
                    </Anchor>
                  ))}
                </Stack>
              </Paper>
            )}
            <Comments issue={issue} people={people} nameOf={nameOf} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder p="sm" data-testid="issue-history">
            <Text fw={600} fz="sm" mb="xs">
              {t('shell.issues.history')}
            </Text>
            <Timeline bulletSize={10} lineWidth={2}>
              {issue.history.map((h) => (
                <Timeline.Item key={h.id}>
                  <Text fz="sm">
                    <b>{t(`shell.issues.historyField.${h.field as 'created'}`, h.field)}</b>
                    {h.field !== 'created' && h.field !== 'links' && h.field !== 'expired' && (
                      <>
                        : {historyValue(h.field, h.before)} → {historyValue(h.field, h.after)}
                      </>
                    )}
                  </Text>
                  <Text fz="xs" c="dimmed">
                    {nameOf(h.user_id)}, {formatMoment(h.created_at, i18n.language)}
                  </Text>
                </Timeline.Item>
              ))}
            </Timeline>
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

let fileKey = 0;

function Comments({
  issue,
  people,
  nameOf,
}: {
  issue: IssuePageDto;
  people: Array<{ id: number; name: string }>;
  nameOf: (id: number | null) => string;
}) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState('');
  const [files, setFiles] = useState<Array<{ key: number; name: string; uploaded?: IssueUploadDto }>>([]);
  const resetRef = useRef<() => void>(null);
  const comment = useCommentIssue(issue.id);
  useEffect(() => setText(''), []);
  const uploading = files.some((f) => !f.uploaded);
  const addFiles = async (picked: File[]) => {
    resetRef.current?.();
    let count = files.length;
    for (const file of picked) {
      // The shared limits first (the server checks them again): count, type, size.
      if (count >= ISSUE_ATTACHMENTS_MAX) {
        notifyProblem('reply.tooManyAttachments', { limit: ISSUE_ATTACHMENTS_MAX });
        break;
      }
      if (file.type && !(file.type.toLowerCase() in ISSUE_ATTACHMENT_TYPES)) {
        notifyProblem('issues.attachment.unsupportedType');
        continue;
      }
      if (file.size > ISSUE_ATTACHMENT_MAX_BYTES) {
        notifyProblem('issues.attachment.tooLarge', { limit: ISSUE_ATTACHMENT_MAX_BYTES / (1024 * 1024) });
        continue;
      }
      count++;
      const key = ++fileKey;
      setFiles((list) => [...list, { key, name: file.name }]);
      try {
        const uploaded = await uploadIssueFile(issue.id, file);
        setFiles((list) => list.map((f) => (f.key === key ? { ...f, uploaded } : f)));
      } catch (error) {
        setFiles((list) => list.filter((f) => f.key !== key));
        showError(error);
      }
    }
  };
  const send = () =>
    comment.mutate(
      {
        text,
        mentions: mentionsIn(text, people),
        attachments: files.flatMap((f) => (f.uploaded ? [{ file: f.uploaded.file, name: f.name }] : [])),
      },
      {
        onSuccess: () => {
          setText('');
          setFiles([]);
        },
        onError: showError,
      },
    );
  return (
    <Paper withBorder p="sm" data-testid="issue-comments">
      <Text fw={600} fz="sm" mb="xs">
        {t('shell.issues.comments')}
      </Text>
      <Stack gap="xs">
        {issue.comments.length === 0 && (
          <Text fz="sm" c="dimmed">
            {t('shell.issues.commentsEmpty')}
          </Text>
        )}
        {issue.comments.map((c) => (
          <Paper key={c.id} bg="var(--mantine-color-gray-light)" p="xs" data-testid="issue-comment">
            <Text fz="xs" c="dimmed">
              {nameOf(c.user_id)}, {formatMoment(c.created_at, i18n.language)}
            </Text>
            <Text fz="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {c.text}
            </Text>
            {c.attachments.length > 0 && (
              <Group gap="sm" mt={4} data-testid="issue-comment-files">
                {c.attachments.map((a) => (
                  <Group key={a.url} gap={4} wrap="nowrap">
                    <IconPaperclip size={14} aria-hidden />
                    <ProxiedFile path={a.url} name={a.name} />
                  </Group>
                ))}
              </Group>
            )}
          </Paper>
        ))}
        {issue.can_edit && (
          <>
            <Textarea
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              placeholder={t('shell.issues.commentPlaceholder')}
              autosize
              minRows={2}
              maxRows={8}
              data-testid="issue-comment-input"
            />
            {files.length > 0 && (
              <Group gap="xs" data-testid="issue-comment-pending">
                {files.map((f) => (
                  <Badge
                    key={f.key}
                    variant="light"
                    color={f.uploaded ? 'blue' : 'gray'}
                    rightSection={
                      f.uploaded && (
                        <CloseButton
                          size="xs"
                          aria-label={t('shell.issues.removeFile', { name: f.name })}
                          onClick={() => setFiles((list) => list.filter((x) => x.key !== f.key))}
                        />
                      )
                    }
                  >
                    {f.uploaded ? f.name : `${f.name} · ${t('shell.issues.uploading')}`}
                  </Badge>
                ))}
              </Group>
            )}
            <Group justify="space-between">
              <Group gap="xs">
                <Menu position="bottom-start" withinPortal>
                  <Menu.Target>
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      leftSection={<IconAt size={14} />}
                      data-testid="mention-picker"
                    >
                      {t('shell.issues.mention')}
                    </Button>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {people.map((m) => (
                      <Menu.Item
                        key={m.id}
                        onClick={() => setText((v) => `${v}${v && !v.endsWith(' ') ? ' ' : ''}@${m.name} `)}
                      >
                        {m.name}
                      </Menu.Item>
                    ))}
                  </Menu.Dropdown>
                </Menu>
                <FileButton
                  onChange={(picked) => void addFiles(picked)}
                  accept={ISSUE_ATTACHMENT_ACCEPT}
                  multiple
                  resetRef={resetRef}
                >
                  {(props) => (
                    <ActionIcon
                      {...props}
                      variant="subtle"
                      color="gray"
                      size="lg"
                      aria-label={t('shell.issues.attach')}
                      disabled={files.length >= ISSUE_ATTACHMENTS_MAX}
                      data-testid="issue-comment-attach"
                    >
                      <IconPaperclip size={18} />
                    </ActionIcon>
                  )}
                </FileButton>
              </Group>
              <Button
                size="compact-md"
                disabled={text.trim() === '' || uploading}
                loading={comment.isPending}
                onClick={send}
                data-testid="issue-comment-send"
              >
                {t('shell.issues.commentSend')}
              </Button>
            </Group>
            <Text fz="xs" c="dimmed">
              {t('shell.issues.attachmentsNote', {
                mb: ISSUE_ATTACHMENT_MAX_BYTES / (1024 * 1024),
                max: ISSUE_ATTACHMENTS_MAX,
              })}
            </Text>
          </>
        )}
      </Stack>
    </Paper>
  );
}
