import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/** Last line of defence: a render error shows this instead of a blank page. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <Center mih="100dvh" p="lg">
      <Stack align="center" ta="center" gap="sm" role="alert">
        <Title order={1} fz={24}>
          {t('system.errorHeading')}
        </Title>
        <Text c="dimmed">{t('system.errorText')}</Text>
        <Group>
          <Button onClick={() => window.location.reload()}>{t('system.reload')}</Button>
          <Button variant="default" component="a" href="/">
            {t('common.toHome')}
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
