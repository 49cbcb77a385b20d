import { Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import {
  can,
  createIssueBody,
  ISSUE_PRIORITIES,
  type IssueDto,
  type IssueLinkKindName,
} from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useMembers } from '../../api/inbox';
import { useCreateIssue } from '../../api/issues';
import { showError } from '../../components/notify';
import { useShell } from '../../shell/ShellContext';
import { notifyDone } from '../inbox/notify';
import { fromLocalInput, statusesOffered } from './model';

/**
 * "Create task": standalone (space chosen here) or from an item, chat or author (the link prefilled and
 * the space fixed). Opens the new task's page when `openAfter`.
 */
export function IssueFormModal({
  opened,
  onClose,
  spaceId,
  links = [],
  defaultTitle = '',
  openAfter = true,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  spaceId?: number;
  links?: Array<{ kind: IssueLinkKindName; id: number }>;
  defaultTitle?: string;
  openAfter?: boolean;
  onCreated?: (issue: IssueDto) => void;
}) {
  const { t } = useTranslation();
  const { config, actor, objects } = useShell();
  const navigate = useNavigate();
  const members = useMembers();
  const create = useCreateIssue();
  const spaces = config.spaces.filter((s) => can(actor, 'issues.edit', s.id));
  const [space, setSpace] = useState<number | null>(spaceId ?? spaces[0]?.id ?? null);
  const [title, setTitle] = useState(defaultTitle);
  const [description, setDescription] = useState('');
  const [assignee, setAssignee] = useState<string | null>(null);
  const [department, setDepartment] = useState<string | null>(null);
  const [due, setDue] = useState('');
  const [priority, setPriority] = useState<string>('normal');
  const [status, setStatus] = useState<string>('new');
  const [titleError, setTitleError] = useState<string | null>(null);
  const currentSpace = spaceId ?? space;
  const people = (members.data ?? []).filter((m) => m.space_id === currentSpace);
  const departments = (objects?.departments ?? []).filter((d) => d.space_id === currentSpace);

  const submit = () => {
    if (currentSpace === null) return;
    const body = {
      space_id: currentSpace,
      title,
      description,
      status,
      priority,
      assigned_user_id: assignee ? Number(assignee) : null,
      department_id: department ? Number(department) : null,
      due_at: fromLocalInput(due),
      links,
    };
    const parsed = createIssueBody.safeParse(body);
    if (!parsed.success) {
      setTitleError(t('shell.issues.field.title'));
      return;
    }
    setTitleError(null);
    create.mutate(body as Parameters<typeof create.mutate>[0], {
      onSuccess: (issue) => {
        notifyDone(t('shell.issues.created'));
        onClose();
        setTitle(defaultTitle);
        setDescription('');
        onCreated?.(issue);
        if (openAfter) void navigate(pathFor('issue-page', { id: issue.id }));
      },
      onError: showError,
    });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('shell.issues.create')} size="lg">
      <Stack gap="sm" data-testid="issue-form">
        {spaceId === undefined && spaces.length > 1 && (
          <Select
            label={t('shell.issues.field.space')}
            data={spaces.map((s) => ({ value: String(s.id), label: s.name }))}
            value={space === null ? null : String(space)}
            onChange={(v) => setSpace(v ? Number(v) : null)}
            allowDeselect={false}
          />
        )}
        <TextInput
          label={t('shell.issues.field.title')}
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={titleError}
          required
          data-autofocus
          data-testid="issue-title"
        />
        <Textarea
          label={t('shell.issues.field.description')}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          autosize
          minRows={2}
          maxRows={8}
          data-testid="issue-description"
        />
        <Group grow wrap="wrap" align="flex-start">
          <Select
            label={t('shell.issues.field.assignee')}
            placeholder={t('shell.issues.unassigned')}
            data={people.map((m) => ({ value: String(m.id), label: m.name }))}
            value={assignee}
            onChange={setAssignee}
            clearable
            searchable
            miw={180}
            data-testid="issue-assignee"
          />
          <Select
            label={t('shell.issues.field.department')}
            placeholder={t('shell.issues.noDepartment')}
            data={departments.map((d) => ({ value: String(d.id), label: d.name }))}
            value={department}
            onChange={setDepartment}
            clearable
            miw={180}
          />
        </Group>
        <Group grow wrap="wrap" align="flex-start">
          <TextInput
            type="datetime-local"
            label={t('shell.issues.field.due')}
            value={due}
            onChange={(e) => setDue(e.currentTarget.value)}
            miw={180}
            data-testid="issue-due"
          />
          <Select
            label={t('shell.issues.field.priority')}
            data={ISSUE_PRIORITIES.map((p) => ({ value: p, label: t(`shell.issues.priority.${p}`) }))}
            value={priority}
            onChange={(v) => v && setPriority(v)}
            allowDeselect={false}
            miw={140}
          />
          <Select
            label={t('shell.issues.field.status')}
            data={statusesOffered(config.spaces.find((s) => s.id === currentSpace)?.settings, status).map(
              (s) => ({ value: s, label: t(`shell.issues.status.${s}`) }),
            )}
            value={status}
            onChange={(v) => v && setStatus(v)}
            allowDeselect={false}
            miw={140}
          />
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('shell.issues.cancel')}
          </Button>
          <Button onClick={submit} loading={create.isPending} data-testid="issue-submit">
            {t('shell.issues.create')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
