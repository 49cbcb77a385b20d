import { Anchor, Box, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { InboxAuthor } from '../../../api/inboxTypes';
import { useInboxT } from '../i18n';
import { ProviderIcon } from './ProviderIcon';

// The head of an item or chat page: network, author (a link to their page), account, and the actions.

export function RecordHeader({
  provider,
  author,
  subtitle,
  badges,
  actions,
}: {
  provider: string | undefined;
  author: InboxAuthor | null;
  subtitle: ReactNode;
  badges: ReactNode;
  actions: ReactNode;
}) {
  const t = useInboxT();
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Group gap="sm" wrap="nowrap" align="flex-start" miw={0} style={{ flex: '1 1 260px' }}>
          <ProviderIcon provider={provider} size={40} />
          <Stack gap={2} miw={0}>
            <Title order={1} fz={{ base: 18, sm: 22 }} lh={1.25} style={{ overflowWrap: 'anywhere' }}>
              {author ? (
                <Anchor
                  component={Link}
                  to={pathFor('author', { id: author.id })}
                  c="inherit"
                  fw={700}
                  data-testid="record-author"
                >
                  {author.name}
                </Anchor>
              ) : (
                t('list.unknownAuthor')
              )}
            </Title>
            <Text fz="xs" c="dimmed">
              {subtitle}
            </Text>
            <Group gap={6} mt={4} wrap="wrap">
              {badges}
            </Group>
          </Stack>
        </Group>
        <Box>{actions}</Box>
      </Group>
    </Paper>
  );
}
