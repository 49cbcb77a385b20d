import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { translate } from '@otklik/shared';
import { IconLock } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../i18n/useLocale';
import { pageTitle } from './title';
import { useLogout } from './useLogout';

/** docs/product/roles.md: a 403 shows this page with the server's text and offers switching to a different user. */
export function NoAccess({ message }: { message: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const logout = useLogout();
  const heading = t('system.noAccessHeading');

  useEffect(() => {
    document.title = pageTitle(heading);
  }, [heading]);

  return (
    <Center mih={360} p="lg">
      <Stack align="center" ta="center" gap="sm" maw={480} data-testid="no-access">
        <ThemeIcon size={56} radius="xl" variant="light" color="orange">
          <IconLock size={28} />
        </ThemeIcon>
        <Title order={1} fz={24}>
          {heading}
        </Title>
        <Text c="dimmed">{message || translate(locale, 'error.noAccess')}</Text>
        <Button variant="default" onClick={() => void logout({ withRedirect: true })}>
          {t('system.switchUser')}
        </Button>
      </Stack>
    </Center>
  );
}
