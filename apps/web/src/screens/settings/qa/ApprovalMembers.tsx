import { Badge, Group, NumberInput, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import type { QaApprovalMemberDto } from '@otklik/shared';
import { QA_APPROVAL_DAYS_MAX } from '@otklik/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApprovalMembers, useSetApprovalMember } from '../../../api/qa';
import { showError, showSaved } from '../../../components/notify';
import { QueryState } from '../../../components/QueryState';
import { useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';

// settings/qa, "Approval of replies" (docs/product/qa.md): per member, whether their replies wait for a
// reviewer, optionally for the first N days (a newcomer).

function MemberRow({ spaceId, member }: { spaceId: number; member: QaApprovalMemberDto }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const save = useSetApprovalMember();
  const [days, setDays] = useState<number | ''>('');
  const set = (required: boolean) =>
    save.mutate(
      { spaceId, userId: member.user_id, required, days: required && days !== '' ? days : null },
      { onSuccess: () => showSaved(t('shell.qa.approvals.saved')), onError: showError },
    );
  return (
    <Group
      justify="space-between"
      p="sm"
      gap="xs"
      wrap="wrap"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      data-testid="approval-member"
      data-user-id={member.user_id}
    >
      <Stack gap={2} miw={0}>
        <Text fz="sm" fw={500} truncate="end">
          {member.name}
        </Text>
        {member.required && member.until && (
          <Text fz="xs" c="dimmed">
            {member.active
              ? t('shell.qa.approvals.until', {
                  when: formatDateTime(Date.parse(member.until) / 1000, locale),
                })
              : t('shell.qa.approvals.expired')}
          </Text>
        )}
      </Stack>
      <Group gap="sm" wrap="nowrap">
        {!member.required && (
          <NumberInput
            size="xs"
            w={110}
            min={1}
            max={QA_APPROVAL_DAYS_MAX}
            value={days}
            onChange={(v) => setDays(typeof v === 'number' ? v : '')}
            placeholder={t('shell.qa.approvals.days')}
            aria-label={t('shell.qa.approvals.days')}
          />
        )}
        {member.active && (
          <Badge color="yellow" variant="light" style={{ textTransform: 'none' }}>
            {t('shell.qa.approvals.required')}
          </Badge>
        )}
        <Switch
          checked={member.required}
          onChange={(e) => set(e.currentTarget.checked)}
          disabled={save.isPending}
          aria-label={t('shell.qa.approvals.required')}
          data-testid="approval-member-switch"
        />
      </Group>
    </Group>
  );
}

export function ApprovalMembers({ spaceId }: { spaceId: number }) {
  const { t } = useTranslation();
  const members = useApprovalMembers(spaceId);
  return (
    <Stack gap="xs" data-testid="approval-members">
      <Title order={4}>{t('shell.qa.approvals.membersHeading')}</Title>
      <Text fz="sm" c="dimmed">
        {t('shell.qa.approvals.membersHint')}
      </Text>
      <QueryState queries={[members]}>
        {() => (
          <Paper withBorder radius="md" p={0}>
            {members.data!.items.map((m) => (
              <MemberRow key={m.user_id} spaceId={spaceId} member={m} />
            ))}
          </Paper>
        )}
      </QueryState>
    </Stack>
  );
}
