import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMe } from '../../../api/me';
import { PasswordCard } from './PasswordCard';
import { ProfileDetailsCard } from './ProfileDetailsCard';
import { TwoFactorCard } from './TwoFactorCard';

/** /settings/profile: name, email, language, password, two-factor authentication. */
export default function ProfileScreen() {
  const { t } = useTranslation();
  const { data: user } = useMe();
  if (!user) return null;
  return (
    <Stack gap="lg" maw={720} mx="auto">
      <Title order={1} fz={26}>
        {t('titles.settings-profile')}
      </Title>
      <ProfileDetailsCard user={user} />
      <PasswordCard />
      <TwoFactorCard enabled={user.otp_enabled} />
    </Stack>
  );
}
