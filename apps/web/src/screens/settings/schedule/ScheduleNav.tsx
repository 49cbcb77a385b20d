import { Button, Group } from '@mantine/core';
import { can } from '@otklik/shared';
import { pathFor, type StaticRouteName } from '@otklik/shared/routes';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useShell } from '../../../shell/ShellContext';

const LINKS: Array<{
  route: StaticRouteName;
  label: 'team' | 'my' | 'templates' | 'absences';
  manage: boolean;
}> = [
  { route: 'settings-users-workinghours', label: 'team', manage: true },
  { route: 'settings-users-workinghours-my', label: 'my', manage: false },
  { route: 'settings-users-workinghours-templates', label: 'templates', manage: true },
  { route: 'settings-users-workinghours-absences', label: 'absences', manage: true },
];

/** The sections of the working schedule: the team's week, my schedule, templates, absences. */
export function ScheduleNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { actor } = useShell();
  const manager = can(actor, 'schedule.manage');
  const links = LINKS.filter((link) => !link.manage || manager);
  if (links.length < 2) return null;
  return (
    <Group gap={6} wrap="wrap" component="nav" aria-label={t('titles.settings-users-workinghours')}>
      {links.map((link) => {
        const to = pathFor(link.route);
        const active = pathname === to;
        return (
          <Button
            key={link.route}
            component={Link}
            to={to}
            size="compact-md"
            variant={active ? 'light' : 'subtle'}
            color={active ? 'indigo' : 'gray'}
          >
            {t(`settings.schedule.nav.${link.label}`)}
          </Button>
        );
      })}
    </Group>
  );
}
