import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { RouteName } from '@otklik/shared/routes';
import { IconHourglass } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface ComingSoonProps {
  name: RouteName;
  /** Outside the app shell (popup callbacks): take the whole window. */
  bare?: boolean;
}

/** A route that exists but whose screen is not built yet: its title and a clear notice. */
export function ComingSoon({ name, bare }: ComingSoonProps) {
  const { t } = useTranslation();
  return (
    <Center mih={bare ? '100dvh' : 360} p="lg">
      <Stack align="center" gap="sm" ta="center" data-testid="coming-soon">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconHourglass size={28} />
        </ThemeIcon>
        <Title order={1} fz={24}>
          {t(`titles.${name}`)}
        </Title>
        <Text c="dimmed">{t('system.comingSoon')}</Text>
      </Stack>
    </Center>
  );
}
