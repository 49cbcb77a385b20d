import { Button, Group } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SectionCard } from './SectionCard';

/** The way from the profile to one's personal API tokens (settings/api). */
export function ApiTokensCard() {
  const { t } = useTranslation();
  return (
    <SectionCard
      title={t('settings.apiAccess.tokens.profileLink')}
      description={t('settings.apiAccess.tokens.profileHint')}
    >
      <Group>
        <Button
          component={Link}
          to={pathFor('settings-api')}
          variant="light"
          leftSection={<IconKey size={16} />}
          data-testid="profile-api-tokens"
        >
          {t('settings.apiAccess.tokens.open')}
        </Button>
      </Group>
    </SectionCard>
  );
}
