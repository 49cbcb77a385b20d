import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import {
  type PresentedWebhook,
  type PresentedWebhookDelivery,
  translate,
  WEBHOOK_DISABLE_AFTER,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
  webhookFormSchema,
} from '@otklik/shared';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useRedeliver,
  useUpdateWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from '../../../api/apiAccess';
import { DeleteButton } from '../../../components/DeleteButton';
import { showErrorAndFields, topLevelIssueErrors } from '../../../components/fieldErrors';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { QueryState } from '../../../components/QueryState';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { useLocale } from '../../../i18n/useLocale';
import { formatDateTime } from '../../../lib/format';
import { SecretOnce } from '../api/ApiTokensScreen';

// settings/webhooks (issue 14 item 9): a space's endpoints, their events, the signing secret shown once,
// the delivery log with redelivery.

type Draft = { url: string; description: string; events: WebhookEventType[]; is_enabled: boolean };

function WebhookDialog({
  spaceId,
  webhook,
  onClose,
}: {
  spaceId: number;
  webhook: PresentedWebhook | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const [draft, setDraft] = useState<Draft>({
    url: webhook?.url ?? '',
    description: webhook?.description ?? '',
    events: webhook?.events ?? ['item.created'],
    is_enabled: webhook?.is_enabled ?? true,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [secret, setSecret] = useState<string | null>(null);

  const save = async () => {
    const parsed = webhookFormSchema.safeParse(draft);
    if (!parsed.success) {
      setErrors(topLevelIssueErrors(parsed.error.issues, (key) => translate(locale, key)));
      return;
    }
    try {
      if (webhook) {
        await update.mutateAsync({ id: webhook.id, ...parsed.data });
        showSaved(t('settings.apiAccess.webhooks.saved'));
        onClose();
      } else {
        const result = await create.mutateAsync({ ...parsed.data, space_id: spaceId });
        setSecret(result.secret);
      }
    } catch (error) {
      showErrorAndFields(error, setErrors);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={webhook ? t('settings.apiAccess.webhooks.editTitle') : t('settings.apiAccess.webhooks.newTitle')}
    >
      {secret ? (
        <Stack>
          <Text fw={600}>{t('settings.apiAccess.webhooks.secretTitle')}</Text>
          <SecretOnce
            secret={secret}
            note={t('settings.apiAccess.webhooks.secretOnce')}
            testId="webhook-secret"
          />
          <Group justify="flex-end">
            <Button onClick={onClose} data-testid="webhook-done">
              {t('settings.apiAccess.webhooks.done')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <TextInput
            label={t('settings.apiAccess.webhooks.url')}
            placeholder="https://example.com/webhook"
            value={draft.url}
            onChange={(e) => {
              const url = e.currentTarget.value;
              setDraft((d) => ({ ...d, url }));
            }}
            error={errors.url}
            required
            data-testid="webhook-url"
            data-autofocus
          />
          <TextInput
            label={t('settings.apiAccess.webhooks.description')}
            placeholder={t('settings.apiAccess.webhooks.descriptionPlaceholder')}
            value={draft.description}
            onChange={(e) => {
              const description = e.currentTarget.value;
              setDraft((d) => ({ ...d, description }));
            }}
            error={errors.description}
          />
          <Checkbox.Group
            label={t('settings.apiAccess.webhooks.events')}
            value={draft.events}
            onChange={(events) => setDraft((d) => ({ ...d, events: events as WebhookEventType[] }))}
            error={errors.events}
          >
            <Stack gap={6} mt={6}>
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <Checkbox
                  key={type}
                  value={type}
                  label={t(`settings.apiAccess.webhooks.event.${type}`)}
                  data-testid={`webhook-event-${type}`}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          <Switch
            label={t('settings.apiAccess.webhooks.enabled')}
            checked={draft.is_enabled}
            onChange={(e) => {
              const is_enabled = e.currentTarget.checked;
              setDraft((d) => ({ ...d, is_enabled }));
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('settings.apiAccess.webhooks.cancel')}
            </Button>
            <Button
              onClick={() => void save()}
              loading={create.isPending || update.isPending}
              data-testid="webhook-save"
            >
              {t('settings.apiAccess.webhooks.save')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

const STATE_COLORS = { pending: 'blue', done: 'green', failed: 'red' } as const;

function DeliveryLog({ endpointId }: { endpointId: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const deliveries = useWebhookDeliveries(endpointId);
  const redeliver = useRedeliver();
  return (
    <QueryState queries={[deliveries]}>
      {() => {
        const items = deliveries.data?.items ?? [];
        if (items.length === 0)
          return (
            <Text c="dimmed" fz="sm" data-testid="deliveries-empty">
              {t('settings.apiAccess.webhooks.logEmpty')}
            </Text>
          );
        return (
          <Table.ScrollContainer minWidth={720}>
            <Table verticalSpacing="xs" fz="sm" data-testid="deliveries">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('settings.apiAccess.webhooks.columns.time')}</Table.Th>
                  <Table.Th>{t('settings.apiAccess.webhooks.columns.event')}</Table.Th>
                  <Table.Th>{t('settings.apiAccess.webhooks.columns.state')}</Table.Th>
                  <Table.Th>{t('settings.apiAccess.webhooks.columns.response')}</Table.Th>
                  <Table.Th>{t('settings.apiAccess.webhooks.columns.attempts')}</Table.Th>
                  <Table.Th>{t('settings.apiAccess.webhooks.columns.duration')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((d: PresentedWebhookDelivery) => (
                  <Table.Tr key={d.id} data-testid="delivery-row" data-state={d.state}>
                    <Table.Td>{formatDateTime(d.created_at, locale)}</Table.Td>
                    <Table.Td>{t(`settings.apiAccess.webhooks.event.${d.event_type}`)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Badge color={STATE_COLORS[d.state]} variant="light" tt="none">
                        {t(`settings.apiAccess.webhooks.state.${d.state}`)}
                      </Badge>
                      {d.state === 'pending' && d.next_attempt_at && d.attempts > 0 && (
                        <Text fz="xs" c="dimmed">
                          {t('settings.apiAccess.webhooks.columns.next')}:{' '}
                          {formatDateTime(d.next_attempt_at, locale)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td title={d.error ?? undefined}>
                      {d.response_status ??
                        (d.attempts > 0 ? t('settings.apiAccess.webhooks.noResponse') : '—')}
                    </Table.Td>
                    <Table.Td data-testid="delivery-attempts">{d.attempts}</Table.Td>
                    <Table.Td>
                      {d.duration_ms === null
                        ? '—'
                        : t('settings.apiAccess.webhooks.ms', { ms: d.duration_ms })}
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-xs"
                        variant="light"
                        disabled={d.state === 'pending'}
                        onClick={async () => {
                          try {
                            await redeliver.mutateAsync(d.id);
                            showSaved(t('settings.apiAccess.webhooks.redelivered'));
                            void deliveries.refetch();
                          } catch (error) {
                            showError(error);
                          }
                        }}
                        data-testid="delivery-redeliver"
                      >
                        {t('settings.apiAccess.webhooks.redeliver')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        );
      }}
    </QueryState>
  );
}

function WebhookCard({ webhook, onEdit }: { webhook: PresentedWebhook; onEdit: () => void }) {
  const { t } = useTranslation();
  const remove = useDeleteWebhook();
  const update = useUpdateWebhook();
  const [showLog, setShowLog] = useState(false);
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} data-testid="webhook-row">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Stack gap={2} miw={0} style={{ flex: 1 }}>
            <Text fw={600} fz="sm" style={{ wordBreak: 'break-all' }} data-testid="webhook-row-url">
              {webhook.url}
            </Text>
            {webhook.description && (
              <Text fz="xs" c="dimmed">
                {webhook.description}
              </Text>
            )}
          </Stack>
          <Badge color={webhook.is_enabled ? 'green' : 'gray'} variant="light" tt="none">
            {webhook.is_enabled ? t('settings.apiAccess.webhooks.on') : t('settings.apiAccess.webhooks.off')}
          </Badge>
        </Group>
        {webhook.disabled_reason === 'failures' && (
          <Alert color="red" variant="light" data-testid="webhook-disabled-reason">
            <Group justify="space-between" gap="xs">
              <Text fz="sm">
                {t('settings.apiAccess.webhooks.offFailures', { count: WEBHOOK_DISABLE_AFTER })}
              </Text>
              <Button
                size="compact-sm"
                variant="white"
                onClick={() => update.mutateAsync({ id: webhook.id, is_enabled: true }).catch(showError)}
              >
                {t('settings.apiAccess.webhooks.on')}
              </Button>
            </Group>
          </Alert>
        )}
        <Group gap={6} wrap="wrap">
          {webhook.events.map((type) => (
            <Badge key={type} variant="outline" color="gray" tt="none">
              {t(`settings.apiAccess.webhooks.event.${type}`)}
            </Badge>
          ))}
        </Group>
        <Group gap="xs" wrap="wrap">
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => setShowLog((v) => !v)}
            data-testid="webhook-log"
          >
            {showLog ? t('settings.apiAccess.webhooks.hideLog') : t('settings.apiAccess.webhooks.log')}
          </Button>
          <Button size="compact-sm" variant="default" onClick={onEdit} data-testid="webhook-edit">
            {t('settings.apiAccess.webhooks.edit')}
          </Button>
          <DeleteButton
            title={t('settings.apiAccess.webhooks.deleteTitle')}
            message={t('settings.apiAccess.webhooks.deleteText', { url: webhook.url })}
            label={t('settings.apiAccess.webhooks.delete')}
            deleted={t('settings.apiAccess.webhooks.deleted')}
            onDelete={() => remove.mutateAsync(webhook.id)}
            size="compact-sm"
            testId="webhook-delete"
          />
        </Group>
        {showLog && <DeliveryLog endpointId={webhook.id} />}
      </Stack>
    </Paper>
  );
}

/** settings/webhooks */
export default function WebhooksScreen() {
  const { t } = useTranslation();
  const { spaces, spaceId, setSpace } = useManagedSpace('settings.manage');
  const webhooks = useWebhooks(spaceId);
  const [editing, setEditing] = useState<PresentedWebhook | 'new' | null>(null);
  return (
    <Stack gap="lg" maw={960}>
      <PageHeader
        title={t('titles.settings-webhooks')}
        description={t('settings.apiAccess.webhooks.hint')}
        actions={
          spaceId !== null && (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setEditing('new')}
              data-testid="webhook-add"
            >
              {t('settings.apiAccess.webhooks.add')}
            </Button>
          )
        }
      />
      <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
      {spaceId !== null && (
        <QueryState queries={[webhooks]}>
          {() => {
            const items = webhooks.data?.items ?? [];
            if (items.length === 0)
              return (
                <Paper withBorder radius="md" p="xl">
                  <Text ta="center" c="dimmed" data-testid="webhooks-empty">
                    {t('settings.apiAccess.webhooks.empty')}
                  </Text>
                </Paper>
              );
            return (
              <Stack gap="sm">
                {items.map((w) => (
                  <WebhookCard key={w.id} webhook={w} onEdit={() => setEditing(w)} />
                ))}
              </Stack>
            );
          }}
        </QueryState>
      )}
      {editing !== null && spaceId !== null && (
        <WebhookDialog
          spaceId={spaceId}
          webhook={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}
