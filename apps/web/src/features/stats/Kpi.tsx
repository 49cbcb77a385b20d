import { Anchor, Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** One figure with the previous period's value under it when comparing; a link opens the counted items. */
export function Kpi({
  label,
  value,
  previous,
  to,
  testId,
  children,
}: {
  label: string;
  value: string;
  previous?: string | null;
  to?: string;
  testId: string;
  /** Under the figure: a sparkline (the dashboard). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="sm" data-testid={testId}>
      <Text c="dimmed" fz="xs">
        {label}
      </Text>
      <Text fz={26} fw={700} data-testid={`${testId}-value`}>
        {to ? (
          <Anchor component={Link} to={to} inherit>
            {value}
          </Anchor>
        ) : (
          value
        )}
      </Text>
      {previous != null && (
        <Text c="dimmed" fz="xs">
          {t('shell.stats.previous', { value: previous })}
        </Text>
      )}
      {children}
    </Paper>
  );
}
