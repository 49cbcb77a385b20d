import { Alert, Button, Group, Paper, Stack, Switch, Text, TextInput } from '@mantine/core';
import {
  type BotStepInput,
  botFormSchema,
  getProvider,
  isProviderId,
  type PresentedBot,
} from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useBots, useCreateBot, useUpdateBot } from '../../../api/bots';
import { useObjects } from '../../../api/config';
import { issueErrors, showSaveError } from '../../../components/fieldErrors';
import { IdSelect } from '../../../components/IdSelect';
import { showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { useMessage } from '../../../i18n/useLocale';

import { type Errors, type Flow, FlowEditor } from './BotFlowEditor';
// The create/edit form of a chat-bot (issue 17): name, account, on/off, and two flows (main and outside
// business hours), each an ordered list of steps with their own fields; checked by the shared schema the
// server uses. Steps are named (`greet`, `menu-2`…) so buttons and "then" can point at any of them.

export function BotForm({ bot, spaceId }: { bot?: PresentedBot; spaceId: number }) {
  const { t } = useTranslation();
  const message = useMessage();
  const navigate = useNavigate();
  const create = useCreateBot();
  const update = useUpdateBot();
  const objects = useObjects();
  const bots = useBots();
  const [name, setName] = useState(bot?.name ?? '');
  const [objectId, setObjectId] = useState<number | null>(bot?.object_id ?? null);
  const [enabled, setEnabled] = useState(bot?.enabled ?? true);
  const [flows, setFlows] = useState<Record<Flow, BotStepInput[]>>({
    steps: (bot?.steps as BotStepInput[] | undefined) ?? [
      { id: 'greet', type: 'message', text: '' },
      { id: 'handoff', type: 'handoff', text: '', user_id: null },
    ],
    off_hours_steps: (bot?.off_hours_steps as BotStepInput[] | undefined) ?? [],
  });
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);

  const taken = new Set((bots.data?.items ?? []).filter((b) => b.id !== bot?.id).map((b) => b.object_id));
  const accounts = (objects.data?.items ?? []).filter(
    (o) =>
      o.space_id === spaceId &&
      isProviderId(o.provider) &&
      getProvider(o.provider).messages &&
      (!taken.has(o.id) || o.id === bot?.object_id),
  );
  const values = () => ({ name, enabled, steps: flows.steps, off_hours_steps: flows.off_hours_steps });
  const live = submitted ? botFormSchema.safeParse(values()) : null;
  const errors: Errors = {
    ...(live && !live.success ? issueErrors(live.error.issues, message, 'name') : {}),
    ...(submitted && !objectId ? { object_id: message('bots.account.required') } : {}),
    ...serverErrors,
  };

  const submit = () => {
    const parsed = botFormSchema.safeParse(values());
    setSubmitted(true);
    if (!parsed.success || !objectId) return;
    setServerErrors({});
    const done = {
      onSuccess: () => {
        showSaved(t('settings.bots.saved'));
        navigate(pathFor('settings-bots', {}, { space_id: spaceId }));
      },
      onError: (error: Error) => showSaveError(error, setServerErrors),
    };
    if (bot) update.mutate({ id: bot.id, ...parsed.data }, done);
    else create.mutate({ ...parsed.data, space_id: spaceId, object_id: objectId }, done);
  };
  const busy = create.isPending || update.isPending;

  return (
    <Stack gap="lg" maw={860}>
      <PageHeader title={bot ? bot.name : t('settings.bots.newTitle')} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Paper withBorder radius="md" p="md">
            <Stack gap="sm">
              <TextInput
                label={t('settings.bots.name')}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                error={errors.name}
                maxLength={120}
                data-testid="bot-name"
              />
              {accounts.length === 0 && !objects.isPending ? (
                <Alert color="yellow" variant="light" data-testid="bot-no-accounts">
                  {t('settings.bots.noAccounts')}
                </Alert>
              ) : (
                <IdSelect
                  label={t('settings.bots.account')}
                  placeholder={t('settings.bots.accountPick')}
                  data={accounts.map((o) => ({
                    value: String(o.id),
                    label: `${o.name} (${isProviderId(o.provider) ? getProvider(o.provider).name : o.provider})`,
                  }))}
                  value={objectId}
                  onChange={setObjectId}
                  disabled={Boolean(bot)}
                  error={errors.object_id}
                  data-testid="bot-account"
                />
              )}
              <Switch
                label={t('settings.bots.enabled')}
                checked={enabled}
                onChange={(e) => setEnabled(e.currentTarget.checked)}
                data-testid="bot-enabled"
              />
              <Text fz="xs" c="dimmed">
                {t('settings.bots.keyboards')}
              </Text>
            </Stack>
          </Paper>
          <FlowEditor
            title={t('settings.bots.mainFlow')}
            hint={t('settings.bots.mainFlowHint')}
            flow="steps"
            steps={flows.steps}
            onChange={(steps) => setFlows((f) => ({ ...f, steps }))}
            errors={errors}
            spaceId={spaceId}
          />
          <FlowEditor
            title={t('settings.bots.offHours')}
            hint={t('settings.bots.offHoursHint')}
            flow="off_hours_steps"
            steps={flows.off_hours_steps}
            onChange={(off_hours_steps) => setFlows((f) => ({ ...f, off_hours_steps }))}
            errors={errors}
            spaceId={spaceId}
          />
          <Group>
            <Button type="submit" loading={busy} data-testid="bot-save">
              {t('settings.bots.save')}
            </Button>
            <Button
              variant="default"
              component={Link}
              to={pathFor('settings-bots', {}, { space_id: spaceId })}
            >
              {t('settings.bots.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
