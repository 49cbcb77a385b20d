import { Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { IconRobot } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useChatBot } from '../../api/bots';

// The chat's chat-bot conversation (issue 17) beside the messages: which bot, how it ended (handed off,
// stopped by an operator…) and the fields it collected, so the operator who takes the chat has them.

const FIELD_KEYS = new Set(['name', 'phone', 'email', 'order', 'text']);

export function ChatBotCard({ chatId, version }: { chatId: number; version: unknown }) {
  const { t } = useTranslation();
  const query = useChatBot(chatId, version);
  const session = query.data?.session;
  if (!session) return null;
  const fields = Object.entries(session.fields);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="chat-bot-card">
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap">
          <IconRobot size={18} aria-hidden />
          <Text fz="sm" fw={500}>
            {t('settings.bots.chatCard', {
              name: session.bot_name,
              state: t(`settings.bots.states.${session.state}`),
            })}
          </Text>
        </Group>
        {fields.length > 0 && (
          <>
            <Text fz="xs" c="dimmed">
              {t('settings.bots.collected')}
            </Text>
            <Table fz="sm" verticalSpacing={4} data-testid="chat-bot-fields">
              <Table.Tbody>
                {fields.map(([key, value]) => (
                  <Table.Tr key={key}>
                    <Table.Td c="dimmed" w="40%">
                      {FIELD_KEYS.has(key)
                        ? t(`settings.bots.fields.${key as 'name' | 'phone' | 'email' | 'order' | 'text'}`)
                        : key}
                    </Table.Td>
                    <Table.Td style={{ wordBreak: 'break-word' }}>
                      {key === 'phone' ? <a href={`tel:${value}`}>{value}</a> : value}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </>
        )}
        {session.state === 'active' && (
          <Badge size="sm" variant="light" color="blue" style={{ alignSelf: 'flex-start' }}>
            {session.step_id}
          </Badge>
        )}
      </Stack>
    </Paper>
  );
}
