import { Anchor, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { pathFor } from '@otklik/shared/routes';
import { IconTicket } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type HdeKind, useCreateHdeTicket, useHdeTickets } from '../../../api/hde';
import { showError, showSaved } from '../../../components/notify';

// HelpDeskEddy tickets of an item or chat (issue 21): the links to the tickets made from it with their
// synced status, and "Create a ticket" (title optional; the server takes the text and the author).

export function HdeTicketsPanel({
  kind,
  id,
  spaceId,
  canManage,
}: {
  kind: HdeKind;
  id: number;
  spaceId: number;
  canManage: boolean;
}) {
  const { t } = useTranslation();
  const tickets = useHdeTickets(kind, id);
  const create = useCreateHdeTicket(kind, id);
  const [open, setOpen] = useState(false);
  const [title, setTitle] = useState('');
  const data = tickets.data;
  if (!data) return null;
  if (data.integration_id === null && data.tickets.length === 0) {
    if (!canManage) return null;
    return (
      <Text size="sm" c="dimmed" data-testid="hde-not-configured">
        {t('settings.hde.tickets.notConfigured')} ·{' '}
        <Anchor
          component={Link}
          underline="always"
          to={pathFor('settings-hde-new', {}, { space_id: spaceId })}
        >
          {t('settings.hde.tickets.setUp')}
        </Anchor>
      </Text>
    );
  }
  const submit = () =>
    create.mutate(title.trim(), {
      onSuccess: () => {
        showSaved(t('settings.hde.tickets.created'));
        setOpen(false);
        setTitle('');
      },
      onError: showError,
    });
  return (
    <Paper withBorder p="sm" data-testid="hde-tickets">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Title order={5}>{t('settings.hde.tickets.title')}</Title>
          {data.integration_id !== null && !open && (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconTicket size={14} />}
              onClick={() => setOpen(true)}
              data-testid="hde-create"
            >
              {t('settings.hde.tickets.create')}
            </Button>
          )}
        </Group>
        {open && (
          <Group align="flex-end" wrap="wrap">
            <TextInput
              style={{ flex: 1, minWidth: 200 }}
              label={t('settings.hde.tickets.subject')}
              placeholder={t('settings.hde.tickets.subjectHint')}
              value={title}
              onChange={(e) => setTitle(e.currentTarget.value)}
              maxLength={200}
              data-testid="hde-title"
            />
            <Button onClick={submit} loading={create.isPending} data-testid="hde-submit">
              {t('settings.hde.tickets.submit')}
            </Button>
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('settings.hde.tickets.cancel')}
            </Button>
          </Group>
        )}
        {data.tickets.map((ticket) => (
          <Group key={ticket.id} gap="xs" wrap="wrap" data-testid="hde-ticket">
            <Anchor href={ticket.url} target="_blank" rel="noreferrer noopener">
              #{ticket.ticket_id} {ticket.title}
            </Anchor>
            <Badge variant="light" color={ticket.status === 'closed' ? 'gray' : 'blue'}>
              {ticket.status
                ? t('settings.hde.tickets.status', { status: ticket.status })
                : t('settings.hde.tickets.noStatus')}
            </Badge>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
