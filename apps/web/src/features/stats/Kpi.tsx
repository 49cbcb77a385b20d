import { Anchor, Group, Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { changeOf } from './model';

/** One figure with the previous period's value under it when comparing; a link opens the counted items. */
export function Kpi({
  label,
  value,
  previous,
  change,
  to,
  testId,
  children,
  big = false,
}: {
  label: string;
  value: string;
  previous?: string | null;
  /** The change against the previous period (changeOf), shown beside the previous value. */
  change?: ReturnType<typeof changeOf> | null;
  to?: string;
  testId: string;
  /** Under the figure: a sparkline (the dashboard). */
  children?: ReactNode;
  /** Wall size on wide screens (the dashboard, read from across a room at 1920×1080). */
  big?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="sm" data-testid={testId}>
      <Text c="dimmed" fz={big ? { base: 'xs', xl: 20 } : 'xs'} fw={big ? 600 : undefined}>
        {label}
      </Text>
      <Text fz={big ? { base: 26, xl: 56 } : 26} fw={700} lh={1.15} data-testid={`${testId}-value`}>
        {to ? (
          <Anchor component={Link} to={to} inherit>
            {value}
          </Anchor>
        ) : (
          value
        )}
      </Text>
      {previous != null && (
        <Group gap={6} wrap="nowrap">
          <Text c="dimmed" fz="xs" data-testid={`${testId}-previous`}>
            {t('shell.stats.previous', { value: previous })}
          </Text>
          {change && <Change change={change} testId={`${testId}-change`} />}
        </Group>
      )}
      {children}
    </Paper>
  );
}

/** ▲ 12.5% / ▼ 3% / =: green when the change is good news for this figure, red when bad. */
export function Change({ change, testId }: { change: ReturnType<typeof changeOf>; testId: string }) {
  const { t, i18n } = useTranslation();
  // Unknown on either side (no first response, nothing came in): nothing to compare.
  if (change.direction === 'flat' && change.percent === null) return null;
  const percent =
    change.percent === null
      ? null
      : `${new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(Math.abs(change.percent))}%`;
  const label =
    change.direction === 'flat'
      ? t('shell.stats.change.flat')
      : percent === null
        ? t('shell.stats.change.new')
        : t(`shell.stats.change.${change.direction}`, { percent });
  const arrow = change.direction === 'up' ? '▲' : change.direction === 'down' ? '▼' : '=';
  return (
    <Text
      fz="xs"
      fw={600}
      c={change.good === null ? 'dimmed' : change.good ? 'teal.8' : 'red.8'}
      aria-label={label}
      title={label}
      data-testid={testId}
      data-good={change.good === null ? undefined : String(change.good)}
    >
      {arrow} {percent ?? ''}
    </Text>
  );
}
