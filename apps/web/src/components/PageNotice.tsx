import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { PageHeader } from './PageHeader';

/** A screen with nothing to show the user (no space of theirs, the feature off): its heading and why. */
export function PageNotice({ title, text, testId }: { title: ReactNode; text: ReactNode; testId?: string }) {
  return (
    <Stack gap="lg">
      <PageHeader title={title} />
      <Text c="dimmed" data-testid={testId}>
        {text}
      </Text>
    </Stack>
  );
}
