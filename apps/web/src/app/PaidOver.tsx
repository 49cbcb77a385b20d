import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { type MessageKey, translate } from '@otklik/shared';
import { IconCreditCardOff } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../i18n/useLocale';
import { pageTitle } from '../shell/title';
import { useLogout } from '../shell/useLogout';

/** docs/product/states.md: every space is expired and the user cannot pay — this replaces the main screen. */
export function PaidOver({ trial, messageKey }: { trial: boolean; messageKey: MessageKey }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const logout = useLogout();
  const heading = translate(locale, messageKey);

  useEffect(() => {
    document.title = pageTitle(heading);
  }, [heading]);

  return (
    <Center mih={360} p="lg">
      <Stack align="center" ta="center" gap="sm" maw={520} data-testid="paid-over" data-trial={trial}>
        <ThemeIcon size={56} radius="xl" variant="light" color="red">
          <IconCreditCardOff size={28} />
        </ThemeIcon>
        <Title order={1} fz={24}>
          {heading}
        </Title>
        <Text c="dimmed">{trial ? t('system.trialOverText') : t('system.paidOverText')}</Text>
        <Button variant="default" onClick={() => void logout({ withRedirect: true })}>
          {t('system.switchUser')}
        </Button>
      </Stack>
    </Center>
  );
}
