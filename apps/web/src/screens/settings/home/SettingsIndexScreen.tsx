import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { accessLabel, can, visibleSettingsEntries, visibleUserMenu } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import {
  type Icon,
  IconAdjustmentsHorizontal,
  IconBuilding,
  IconCircleDot,
  IconHierarchy,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { useLocale } from '../../../i18n/useLocale';
import { accessPath } from '../../../shell/access';
import { SETTINGS_ICONS, USER_MENU_ICONS } from '../../../shell/navItems';
import { useShell } from '../../../shell/ShellContext';

interface CardEntry {
  key: string;
  label: string;
  to: string;
  icon: Icon;
}

function CardGrid({ title, entries }: { title: string; entries: CardEntry[] }) {
  if (entries.length === 0) return null;
  return (
    <Stack gap="sm">
      <Title order={2} fz={16} c="dimmed" fw={600}>
        {title}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="sm">
        {entries.map((entry) => (
          <Card
            key={entry.key}
            component={Link}
            to={entry.to}
            withBorder
            padding="md"
            radius="md"
            data-testid={`settings-card-${entry.key}`}
            style={{ textDecoration: 'none' }}
          >
            <Group gap="sm" wrap="nowrap">
              <ThemeIcon variant="light" size={36} radius="md">
                <entry.icon size={20} />
              </ThemeIcon>
              <Text fw={600} fz="sm">
                {entry.label}
              </Text>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** /settings: a card for every settings section the user may open (docs/product/screens-and-routes.md, roles.md). */
export default function SettingsIndexScreen() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { actor } = useShell();

  const workspace: CardEntry[] = visibleSettingsEntries({ actor }).map((entry) => ({
    key: entry.key,
    label: accessLabel(entry.labelKey, locale),
    to: accessPath(entry.route),
    icon: SETTINGS_ICONS[entry.key],
  }));

  const users = pathFor('settings-users');
  const team = [
    can(actor, 'settings.manage') && {
      key: 'space',
      label: t('settings.index.space'),
      to: pathFor('settings-other'),
      icon: IconAdjustmentsHorizontal,
    },
    can(actor, 'settings.manage') && {
      key: 'statuses',
      label: t('settings.tabs.statuses'),
      to: `${users}?tab=statuses`,
      icon: IconCircleDot,
    },
    can(actor, 'users.manage') && {
      key: 'groups',
      label: t('settings.tabs.groups'),
      to: `${users}?tab=groups`,
      icon: IconUsersGroup,
    },
    can(actor, 'users.manage') && {
      key: 'departments',
      label: t('settings.tabs.departments'),
      to: `${users}?tab=departments`,
      icon: IconHierarchy,
    },
    can(actor, 'companies.manage') && {
      key: 'companies',
      label: t('settings.tabs.companies'),
      to: `${users}?tab=companies`,
      icon: IconBuilding,
    },
  ].filter((entry) => entry !== false) as CardEntry[];

  const personal: CardEntry[] = visibleUserMenu({ actor })
    .filter((entry) => entry.route !== null)
    .map((entry) => ({
      key: entry.key,
      label: accessLabel(entry.labelKey, locale),
      to: accessPath(entry.route!),
      icon: USER_MENU_ICONS[entry.key],
    }));

  return (
    <Stack gap="xl">
      <PageHeader title={t('titles.settings')} />
      <CardGrid title={t('settings.index.workspace')} entries={workspace} />
      <CardGrid title={t('settings.index.team')} entries={team} />
      <CardGrid title={t('settings.index.personal')} entries={personal} />
    </Stack>
  );
}
