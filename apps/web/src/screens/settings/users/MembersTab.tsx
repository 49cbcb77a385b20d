import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { spacesWhere } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { IconMailForward, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useResendInvitation, useRevokeInvitation, useUserGroups, useUsers } from '../../../api/settings';
import type { Invitation, Member } from '../../../api/types';
import { ColorDot } from '../../../components/ColorDot';
import { showError, showSaved } from '../../../components/notify';
import { QueryState } from '../../../components/QueryState';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { DeleteRowAction } from '../../../features/settings-kit/SettingsList';
import { useLocale } from '../../../i18n/useLocale';
import { formatDate } from '../../../lib/format';
import { useShell } from '../../../shell/ShellContext';
import { ROLE_COLORS, roleLabel } from './roles';

export function memberPath(member: Pick<Member, 'id' | 'space_id'>) {
  return `${pathFor('settings-user', { id: member.id })}?space_id=${member.space_id}`;
}

/** Members with role, status and group; pending invitations with resend and revoke. */
export function MembersTab() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { actor, config, space } = useShell();
  const spaces = spacesWhere(actor, 'users.manage');
  const [spaceId, setSpaceId] = useState<number | null>(null);
  const users = useUsers(spaceId ?? undefined);
  const groups = useUserGroups();
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const manageable = config.spaces.filter((s) => spaces.some((m) => m.id === s.id));
  const multiSpace = manageable.length > 1;

  const statusOf = (member: Member) => config.user_statuses.find((s) => s.id === member.status);
  const groupOf = (member: Member) => groups.data?.find((g) => g.id === member.group_id);

  const onResend = async (invitation: Invitation) => {
    try {
      await resend.mutateAsync(invitation.id);
      showSaved(t('settings.users.resent', { email: invitation.email }));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <SpaceSelect spaces={manageable} value={spaceId} onChange={setSpaceId} />
        <Button
          component={Link}
          to={pathFor('settings-users-new')}
          leftSection={<IconPlus size={16} />}
          ml="auto"
          data-testid="invite-user"
        >
          {t('settings.users.invite')}
        </Button>
      </Group>
      <QueryState queries={[users]}>
        {() => (
          <>
            <Paper withBorder radius="md">
              <Table.ScrollContainer minWidth={640}>
                <Table verticalSpacing="sm" highlightOnHover data-testid="members-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('settings.users.name')}</Table.Th>
                      <Table.Th>{t('settings.users.role')}</Table.Th>
                      <Table.Th>{t('settings.users.status')}</Table.Th>
                      <Table.Th>{t('settings.users.group')}</Table.Th>
                      {multiSpace && <Table.Th>{t('settings.common.space')}</Table.Th>}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {users.data?.items.map((member) => {
                      const status = statusOf(member);
                      return (
                        <Table.Tr
                          key={`${member.space_id}:${member.id}`}
                          data-testid={`member-${member.email}`}
                        >
                          <Table.Td>
                            <Anchor component={Link} to={memberPath(member)} fw={600} fz="sm">
                              {member.name}
                            </Anchor>
                            <Text fz="xs" c="dimmed">
                              {member.email}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            <Badge color={ROLE_COLORS[member.role]} variant="light" tt="none">
                              {roleLabel(member.role, locale)}
                            </Badge>
                          </Table.Td>
                          <Table.Td>
                            {status ? (
                              <Group gap={6} wrap="nowrap">
                                <ColorDot color={status.color} />
                                <Text fz="sm">{status.name}</Text>
                              </Group>
                            ) : (
                              <Text fz="sm" c="dimmed">
                                —
                              </Text>
                            )}
                          </Table.Td>
                          <Table.Td>
                            <Text fz="sm" c={groupOf(member) ? undefined : 'dimmed'}>
                              {groupOf(member)?.name ?? t('settings.users.noGroup')}
                            </Text>
                          </Table.Td>
                          {multiSpace && (
                            <Table.Td>
                              <Text fz="sm">{space(member.space_id)?.name}</Text>
                            </Table.Td>
                          )}
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Paper>

            <Stack gap="sm">
              <Title order={2} fz={18}>
                {t('settings.users.invitations')}
              </Title>
              {users.data && users.data.invitations.length > 0 ? (
                <Paper withBorder radius="md">
                  <Table.ScrollContainer minWidth={560}>
                    <Table verticalSpacing="sm" data-testid="invitations-table">
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>{t('settings.users.email')}</Table.Th>
                          <Table.Th>{t('settings.users.role')}</Table.Th>
                          <Table.Th>{t('settings.users.expires')}</Table.Th>
                          <Table.Th w={90} />
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {users.data.invitations.map((invitation) => (
                          <Table.Tr key={invitation.id} data-testid={`invitation-${invitation.email}`}>
                            <Table.Td>
                              <Text fz="sm">{invitation.email}</Text>
                              {multiSpace && (
                                <Text fz="xs" c="dimmed">
                                  {space(invitation.space_id)?.name}
                                </Text>
                              )}
                            </Table.Td>
                            <Table.Td>
                              <Badge color={ROLE_COLORS[invitation.role]} variant="light" tt="none">
                                {roleLabel(invitation.role, locale)}
                              </Badge>
                            </Table.Td>
                            <Table.Td>
                              <Text fz="sm">{formatDate(invitation.expires_at, locale)}</Text>
                            </Table.Td>
                            <Table.Td>
                              <Group gap={4} wrap="nowrap">
                                <Tooltip label={t('settings.users.resend')}>
                                  <ActionIcon
                                    variant="subtle"
                                    aria-label={t('settings.users.resend')}
                                    loading={resend.isPending && resend.variables === invitation.id}
                                    onClick={() => void onResend(invitation)}
                                  >
                                    <IconMailForward size={18} />
                                  </ActionIcon>
                                </Tooltip>
                                <DeleteRowAction
                                  title={t('settings.users.revokeTitle')}
                                  message={t('settings.users.revokeText', { email: invitation.email })}
                                  label={t('settings.users.revoke')}
                                  onConfirm={() => revoke.mutateAsync(invitation.id)}
                                  iconSize={18}
                                />
                              </Group>
                            </Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                </Paper>
              ) : (
                <Text c="dimmed" fz="sm">
                  {t('settings.users.noInvitations')}
                </Text>
              )}
            </Stack>
          </>
        )}
      </QueryState>
    </Stack>
  );
}
