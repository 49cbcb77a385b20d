import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function SectionCard({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} component="section">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} fz={18}>
            {title}
          </Title>
          {description && (
            <Text c="dimmed" fz="sm">
              {description}
            </Text>
          )}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}
