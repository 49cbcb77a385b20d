import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { RolePresetName } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useMember, useRemoveMember, useUpdateMember } from '../../../api/settings';
import type { Member } from '../../../api/types';
import { ColorDot } from '../../../components/ColorDot';
import { ConfirmAction } from '../../../components/ConfirmAction';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { useLocale } from '../../../i18n/useLocale';
import { formatDate, formatDateTime } from '../../../lib/format';
import { isNotFoundError, RecordNotFound } from '../../../shell/RecordNotFound';
import { useShell } from '../../../shell/ShellContext';
import { MemberFields, type MemberFieldValues } from './MemberFields';
import { ROLE_COLORS, roleLabel } from './roles';

function MemberForm({ member }: { member: Member }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const { config, space, user } = useShell();
  const update = useUpdateMember();
  const remove = useRemoveMember();
  const initial: MemberFieldValues = {
    role: member.role === 'custom' ? null : member.role,
    group_id: member.group_id,
    department_ids: member.department_ids,
  };
  const [values, setValues] = useState(initial);
  useEffect(() => {
    setValues({
      role: member.role === 'custom' ? null : member.role,
      group_id: member.group_id,
      department_ids: member.department_ids,
    });
  }, [member]);
  const status = config.user_statuses.find((s) => s.id === member.status);
  const dirty = JSON.stringify(values) !== JSON.stringify(initial);

  const save = async () => {
    try {
      await update.mutateAsync({
        id: member.id,
        space_id: member.space_id,
        ...(values.role && values.role !== member.role ? { role: values.role as RolePresetName } : {}),
        group_id: values.group_id,
        department_ids: values.department_ids,
      });
      showSaved(t('settings.common.saved'));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Stack gap="lg" maw={640}>
      <PageHeader
        title={member.name}
        description={member.email}
        actions={
          <Badge color={ROLE_COLORS[member.role]} variant="light" tt="none" size="lg">
            {roleLabel(member.role, locale)}
          </Badge>
        }
      />
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
        <Stack gap="xs">
          {config.spaces.length > 1 && (
            <Text fz="sm">
              {t('settings.common.space')}: <b>{space(member.space_id)?.name}</b>
            </Text>
          )}
          <Group gap={6}>
            <Text fz="sm">{t('settings.users.status')}:</Text>
            <ColorDot color={status?.color} />
            <Text fz="sm">{status?.name ?? '—'}</Text>
          </Group>
          <Text fz="sm" c="dimmed">
            {t('settings.users.joined', { date: formatDate(member.joined_at, locale) })}
            {member.last_seen
              ? ` · ${t('settings.users.lastSeen', { date: formatDateTime(member.last_seen, locale) })}`
              : ''}
          </Text>
          {!member.otp_enabled && space(member.space_id)?.settings.otp_required && (
            <Text fz="sm" c="orange.8">
              {t('settings.users.noOtp')}
            </Text>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
        <Stack gap="md">
          {member.role === 'custom' && (
            <Text fz="sm" c="dimmed">
              {t('settings.users.customRole')}
            </Text>
          )}
          <MemberFields
            spaceId={member.space_id}
            values={values}
            onChange={(patch) => setValues((current) => ({ ...current, ...patch }))}
          />
          <Group justify="space-between" gap="xs">
            <ConfirmAction
              title={t('settings.users.removeTitle')}
              message={t('settings.users.removeText', {
                name: member.name,
                space: space(member.space_id)?.name ?? '',
              })}
              confirmLabel={t('settings.users.remove')}
              onConfirm={async () => {
                await remove.mutateAsync({ id: member.id, space_id: member.space_id });
                showSaved(t('settings.users.removed', { name: member.name }));
                await navigate(pathFor('settings-users'));
              }}
            >
              {(open) => (
                <Button
                  variant="subtle"
                  color="red"
                  onClick={open}
                  disabled={member.id === user.id}
                  data-testid="remove-member"
                >
                  {t('settings.users.remove')}
                </Button>
              )}
            </ConfirmAction>
            <Button
              onClick={() => void save()}
              loading={update.isPending}
              disabled={!dirty}
              data-testid="save-member"
            >
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}

/** /settings/users/{id}?space_id=: change a member's role, group, departments; remove from the space. */
export default function UserScreen() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const spaceId = Number(params.get('space_id')) || undefined;
  const member = useMember(Number(id), spaceId);
  if (isNotFoundError(member.error)) return <RecordNotFound />;
  return (
    <QueryState queries={[member]}>{() => member.data && <MemberForm member={member.data} />}</QueryState>
  );
}
