import { Box, Button, Group, Tooltip, VisuallyHidden } from '@mantine/core';
import { useResizeObserver } from '@mantine/hooks';
import { accessLabel, type MenuEntry, visibleMenu } from '@otklik/shared';
import { useLayoutEffect, useRef, useState } from 'react';
import { NavLink } from 'react-router';
import type { Counts } from '../../api/types';
import { useLocale } from '../../i18n/useLocale';
import { accessPath } from '../../shell/access';
import { MENU_ICONS, menuBadge } from '../../shell/navItems';
import { useShell } from '../../shell/ShellContext';
import { MenuCount } from './MenuCount';

function NavEntries({
  entries,
  counts,
  withLabels,
}: {
  entries: MenuEntry[];
  counts: Counts;
  withLabels: boolean;
}) {
  const locale = useLocale();
  return entries.map((entry) => {
    const label = accessLabel(entry.labelKey, locale);
    const Icon = MENU_ICONS[entry.key];
    return (
      <Tooltip key={entry.key} label={label} disabled={withLabels} openDelay={300}>
        <NavLink
          to={accessPath(entry.route)}
          end={entry.route === 'stats'}
          style={{ textDecoration: 'none', flexShrink: 0 }}
          data-testid={`menu-${entry.key}`}
        >
          {({ isActive }) => (
            <Button
              component="span"
              variant={isActive ? 'light' : 'subtle'}
              color={isActive ? 'indigo' : 'gray'}
              c={isActive ? undefined : 'dark.6'}
              px={8}
              fw={500}
            >
              <Group component="span" gap={6} wrap="nowrap">
                <Icon size={18} stroke={1.7} />
                {/* The name comes from the content (visible label or hidden one, then the count), so it
                    always contains what is seen (axe label-content-name-mismatch). */}
                {withLabels ? <span>{label}</span> : <VisuallyHidden>{label}</VisuallyHidden>}
                <MenuCount badge={menuBadge(entry.key, counts)} />
              </Group>
            </Button>
          )}
        </NavLink>
      </Tooltip>
    );
  });
}

/**
 * Desktop navigation: the entries the user may open (docs/product/screens-and-routes.md, roles.md). Labels are shown when all of them fit
 * in the room between the logo and the controls on the right, icons with tooltips otherwise.
 */
export function MainNav({ counts }: { counts: Counts }) {
  const { menu } = useShell();
  const entries = visibleMenu(menu);
  const [containerRef, rect] = useResizeObserver<HTMLDivElement>();
  const measureRef = useRef<HTMLDivElement>(null);
  const [withLabels, setWithLabels] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure when the room or the entries change
  useLayoutEffect(() => {
    const needed = measureRef.current?.scrollWidth ?? 0;
    setWithLabels(rect.width > 0 && needed <= rect.width);
  }, [rect.width, entries.length, counts]);

  return (
    <Box
      ref={containerRef}
      visibleFrom="sm"
      flex={1}
      miw={0}
      pos="relative"
      style={{ overflow: 'hidden' }}
      component="nav"
      aria-label="main"
      data-testid="main-nav"
      data-labels={withLabels}
    >
      <Group gap={2} wrap="nowrap">
        <NavEntries entries={entries} counts={counts} withLabels={withLabels} />
      </Group>
      {/* The labelled version, invisible, only to know how wide it would be. */}
      <Group
        ref={measureRef}
        gap={2}
        wrap="nowrap"
        aria-hidden
        pos="absolute"
        top={0}
        left={0}
        w="max-content"
        style={{ visibility: 'hidden', pointerEvents: 'none' }}
      >
        <NavEntries entries={entries} counts={counts} withLabels />
      </Group>
    </Box>
  );
}
