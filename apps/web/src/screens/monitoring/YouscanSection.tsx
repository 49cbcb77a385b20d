import { Badge, Button, Group, NavLink, Paper, Text } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useYouscanTopics } from '../../api/youscan';

/** The monitoring page's YouScan block: the space's connected topics (unread counts) and "connect". */
export function YouscanSection({ spaceId }: { spaceId: number }) {
  const { t } = useTranslation();
  const list = useYouscanTopics();
  const topics = (list.data?.items ?? []).filter((topic) => topic.space_id === spaceId);
  return (
    <Paper withBorder radius="md" p="xs" data-testid="youscan-section">
      <Group justify="space-between" px="xs" pb="xs" wrap="nowrap">
        <Text fw={600}>{t('settings.youscan.section')}</Text>
        <Button
          component={Link}
          to={pathFor('youscan-new', {}, { space_id: spaceId })}
          variant="subtle"
          size="compact-sm"
          leftSection={<IconPlus size={14} />}
          data-testid="youscan-connect"
        >
          {t('settings.youscan.connect')}
        </Button>
      </Group>
      {topics.length === 0 ? (
        <Text c="dimmed" fz="sm" p="xs">
          {list.isPending ? '…' : t('settings.youscan.noTopics')}
        </Text>
      ) : (
        topics.map((topic) => (
          <NavLink
            key={topic.id}
            component={Link}
            to={pathFor('youscan', { id: topic.id })}
            label={topic.name}
            description={t(`settings.youscan.status.${topic.status ?? 'none'}`)}
            data-testid="youscan-topic"
            rightSection={
              topic.unread > 0 ? (
                <Badge color="red" size="sm">
                  {topic.unread}
                </Badge>
              ) : undefined
            }
          />
        ))
      )}
    </Paper>
  );
}
