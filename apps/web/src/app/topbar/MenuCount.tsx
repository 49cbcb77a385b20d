import { Badge, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { badgeText, type MenuBadge } from '../../shell/navItems';

/** The count badge of a menu entry: open count, and expired tasks in red (docs/product/screens-and-routes.md). */
export function MenuCount({ badge }: { badge: MenuBadge | null }) {
  const { t } = useTranslation();
  if (!badge || (badge.count === 0 && !badge.expired)) return null;
  return (
    <Group component="span" gap={3} wrap="nowrap">
      {badge.count > 0 && (
        <Badge
          size="sm"
          circle={badge.count < 10}
          variant="light"
          color="indigo"
          aria-label={t('shell.counts.open', { count: badge.count })}
        >
          {badgeText(badge.count)}
        </Badge>
      )}
      {(badge.expired ?? 0) > 0 && (
        <Badge
          size="sm"
          circle={(badge.expired ?? 0) < 10}
          variant="filled"
          color="red"
          aria-label={t('shell.counts.expired', { count: badge.expired })}
        >
          {badgeText(badge.expired ?? 0)}
        </Badge>
      )}
    </Group>
  );
}
