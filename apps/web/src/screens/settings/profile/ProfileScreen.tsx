import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMe } from '../../../api/me';
import { ChannelHealthAlert } from '../notifications/ChannelHealthAlert';
import { ApiTokensCard } from './ApiTokensCard';
import { DeletionCard } from './DeletionCard';
import { PasswordCard } from './PasswordCard';
import { ProfileDetailsCard } from './ProfileDetailsCard';
import { SocialCard } from './SocialCard';
import { TwoFactorCard } from './TwoFactorCard';

/** /settings/profile: a failing notification channel, name, email, language, password, two-factor, linked social sign-ins, data deletion. */
export default function ProfileScreen() {
  const { t } = useTranslation();
  const { data: user } = useMe();
  if (!user) return null;
  return (
    <Stack gap="lg" maw={720} mx="auto">
      <Title order={1} fz={26}>
        {t('titles.settings-profile')}
      </Title>
      {/* A failing notification channel shows on the profile too (issue 18). */}
      <ChannelHealthAlert link />
      <ProfileDetailsCard user={user} />
      <PasswordCard />
      <TwoFactorCard enabled={user.otp_enabled} />
      <SocialCard />
      <ApiTokensCard />
      <DeletionCard />
    </Stack>
  );
}
