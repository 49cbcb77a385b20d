import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A screen's heading with an optional description and actions on the right. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
      <Stack gap={4} miw={0}>
        <Title order={1} fz={{ base: 22, sm: 26 }}>
          {title}
        </Title>
        {description && (
          <Text c="dimmed" fz="sm">
            {description}
          </Text>
        )}
      </Stack>
      {actions && (
        <Group gap="xs" wrap="wrap">
          {actions}
        </Group>
      )}
    </Group>
  );
}
