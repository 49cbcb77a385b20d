import { Button, Group, Paper, Stack, TextInput } from '@mantine/core';
import { changeEmailFormSchema, type RolePresetName, spacesWhere } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useInviteUser } from '../../../api/settings';
import { showSaveError } from '../../../components/fieldErrors';
import { showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { useMessage } from '../../../i18n/useLocale';
import { useShell } from '../../../shell/ShellContext';
import { MemberFields, type MemberFieldValues } from './MemberFields';

/** /settings/users/new: invite by email into a space with a role, a group and departments. */
export default function InviteUserScreen() {
  const { t } = useTranslation();
  const message = useMessage();
  const navigate = useNavigate();
  const { actor, config } = useShell();
  const invite = useInviteUser();
  const spaces = config.spaces.filter((space) =>
    spacesWhere(actor, 'users.manage').some((s) => s.id === space.id),
  );
  const [email, setEmail] = useState('');
  const [spaceId, setSpaceId] = useState<number | null>(spaces[0]?.id ?? null);
  const [fields, setFields] = useState<MemberFieldValues>({
    role: 'operator',
    group_id: null,
    department_ids: [],
  });
  const [errors, setErrors] = useState<Record<string, string>>({});

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = changeEmailFormSchema.safeParse({ email });
    if (!parsed.success) {
      setErrors({ email: message(parsed.error.issues[0]?.message ?? 'field.invalid') });
      return;
    }
    if (spaceId === null || fields.role === null) return;
    try {
      const result = await invite.mutateAsync({
        email: parsed.data.email,
        space_id: spaceId,
        role: fields.role as RolePresetName,
        group_id: fields.group_id,
        department_ids: fields.department_ids,
      });
      showSaved(
        result.user
          ? t('settings.users.added', { name: result.user.name })
          : t('settings.users.invited', { email: parsed.data.email }),
      );
      await navigate(pathFor('settings-users'));
    } catch (error) {
      showSaveError(error, setErrors);
    }
  };

  return (
    <Stack gap="lg" maw={640}>
      <PageHeader title={t('titles.settings-users-new')} description={t('settings.users.inviteHint')} />
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
        <form onSubmit={(event) => void onSubmit(event)} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('settings.users.email')}
              type="email"
              autoComplete="off"
              value={email}
              onChange={(event) => {
                setEmail(event.currentTarget.value);
                setErrors((current) => ({ ...current, email: '' }));
              }}
              error={errors.email || undefined}
              required
              data-testid="invite-email"
            />
            <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpaceId} />
            <MemberFields
              spaceId={spaceId}
              values={fields}
              onChange={(patch) => setFields((current) => ({ ...current, ...patch }))}
              roleError={errors.role}
            />
            <Group justify="flex-end" gap="xs">
              <Button variant="default" component={Link} to={pathFor('settings-users')}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={invite.isPending} data-testid="invite-submit">
                {t('settings.users.sendInvite')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
