import { Badge, Button, Group, Input, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { isLocale, signupFormSchema } from '@otklik/shared';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { useUpdateMe } from '../../../api/me';
import type { Me } from '../../../api/types';
import { EmailDialog } from '../../../components/email/EmailDialog';
import { useZodForm } from '../../../forms/useZodForm';
import { LocaleField } from '../../auth/LocaleField';
import { SectionCard } from './SectionCard';

const detailsSchema = signupFormSchema.pick({ name: true, locale: true });

/** PUT /v1/me {name, locale}; the email changes through the email dialog. */
export function ProfileDetailsCard({ user }: { user: Me }) {
  const { t } = useTranslation();
  const update = useUpdateMe();
  const [emailOpened, emailDialog] = useDisclosure(false);
  const { form, handleSubmit, setServerErrors } = useZodForm(detailsSchema, {
    name: user.name,
    locale: user.locale,
  });

  const onSubmit = handleSubmit(async (data) => {
    try {
      await update.mutateAsync({ name: data.name, locale: data.locale ?? user.locale });
      form.resetDirty();
      notifications.show({ color: 'green', message: t('profile.saved') });
    } catch (error) {
      if (!setServerErrors(error) && error instanceof ApiError && error.status !== 403)
        notifications.show({ color: 'red', message: error.message });
    }
  });

  return (
    <SectionCard title={t('profile.main')}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput label={t('profile.name')} autoComplete="name" {...form.getInputProps('name')} />
          <Input.Wrapper label={t('profile.email')}>
            <Group gap="sm" mt={4} wrap="nowrap">
              <Text fz="sm" truncate miw={0} data-testid="profile-email">
                {user.email}
              </Text>
              {user.email_status < 1 && (
                <Badge color="yellow" variant="light" tt="none">
                  {t('profile.unconfirmed')}
                </Badge>
              )}
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={emailDialog.open}
                ml="auto"
                style={{ flexShrink: 0 }}
              >
                {t('common.change')}
              </Button>
            </Group>
          </Input.Wrapper>
          <LocaleField
            label={t('profile.locale')}
            value={form.values.locale ?? user.locale}
            onChange={(value) => isLocale(value) && form.setFieldValue('locale', value)}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
      <EmailDialog opened={emailOpened} onClose={emailDialog.close} email={user.email} initialState="edit" />
    </SectionCard>
  );
}
