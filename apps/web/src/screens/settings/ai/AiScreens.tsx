import { Badge, Button, Checkbox, Group, PasswordInput, Stack, Textarea, TextInput } from '@mantine/core';
import type { AiAgentDto } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useAiAgents, useCreateAiAgent, useDeleteAiAgent, useUpdateAiAgent } from '../../../api/ai';
import { FormCard } from '../../../components/FormCard';
import { type FieldErrors, showSaveError } from '../../../components/fieldErrors';
import { showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import {
  AddButton,
  DeleteRowAction,
  ListHeader,
  ListRow,
  RowLink,
  SettingsList,
  SettingsOff,
} from '../../../features/settings-kit/SettingsList';
import { SpaceRecordScreen } from '../../../features/settings-kit/SpaceRecordScreen';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';

// Settings → AI assistant (issue 21): the space's agents — an OpenAI-compatible endpoint, model, key
// (only "set / not set" comes back), instructions and knowledge. Suggestions themselves are
// features/inbox/components/AiSuggest.tsx in the composer.

/** settings/ai */
export function AiAgentsScreen() {
  const { t } = useTranslation();
  const space = useManagedSpace('ai.manage');
  const { spaces, spaceId } = space;
  const list = useAiAgents(spaces.length > 0);
  const remove = useDeleteAiAgent();
  if (spaces.length === 0) return <AiOff />;
  const inSpace = (list.data?.items ?? []).filter((x) => x.space_id === spaceId);
  return (
    <Stack gap="lg">
      <ListHeader
        title={t('settings.ai.heading')}
        hint={t('settings.ai.hint')}
        space={space}
        actions={
          <AddButton
            to={pathFor('settings-ai-create', {}, { space_id: spaceId ?? undefined })}
            label={t('settings.ai.add')}
            testId="ai-add"
          />
        }
      />
      <SettingsList
        query={list}
        rows={inSpace}
        empty={t('settings.ai.empty')}
        emptyTestId="ai-empty"
        errorTitle={t('settings.ai.loadError')}
        retryLabel={t('settings.ai.retry')}
      >
        {(rows) =>
          rows.map((agent) => (
            <ListRow
              key={agent.id}
              testId="ai-row"
              actionsGap="xs"
              main={<RowLink to={pathFor('settings-ai-agent', { id: agent.id })}>{agent.name}</RowLink>}
              subtitle={`${agent.model} · ${agent.base_url}`}
              actions={
                <>
                  <Badge
                    variant="light"
                    color={agent.api_key_set ? 'teal' : 'gray'}
                    style={{ textTransform: 'none' }}
                  >
                    {agent.api_key_set ? t('settings.ai.keySet') : t('settings.ai.keyNotSet')}
                  </Badge>
                  <DeleteRowAction
                    title={t('settings.ai.deleteTitle', { name: agent.name })}
                    message={t('settings.ai.deleteText')}
                    label={t('settings.ai.delete')}
                    onConfirm={() => remove.mutateAsync(agent.id)}
                  />
                </>
              }
            />
          ))
        }
      </SettingsList>
    </Stack>
  );
}

/** settings/ai/create and settings/ai/:id */
export function AiAgentScreen() {
  const { t } = useTranslation();
  return (
    <SpaceRecordScreen
      ability="ai.manage"
      useList={useAiAgents}
      off={<AiOff />}
      notFoundTitle={t('settings.ai.notFound')}
      errorTitle={t('settings.ai.loadError')}
    >
      {(agent, spaceId, key) => <AiAgentForm key={key} agent={agent} spaceId={spaceId} />}
    </SpaceRecordScreen>
  );
}

/** Knowledge snippets are paragraphs: a blank line separates them. */
const splitKnowledge = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((s) => s.trim())
    .filter(Boolean);

function AiAgentForm({ agent, spaceId }: { agent?: AiAgentDto; spaceId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateAiAgent();
  const update = useUpdateAiAgent();
  const [name, setName] = useState(agent?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(agent?.base_url ?? '');
  const [model, setModel] = useState(agent?.model ?? '');
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const [instructions, setInstructions] = useState(agent?.instructions ?? '');
  const [knowledge, setKnowledge] = useState((agent?.knowledge ?? []).join('\n\n'));
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = () => {
    setErrors({});
    const body = {
      name: name.trim(),
      base_url: baseUrl.trim(),
      model: model.trim(),
      instructions,
      knowledge: splitKnowledge(knowledge),
      // Absent keeps the stored key; empty removes it.
      ...(apiKey.trim() ? { api_key: apiKey.trim() } : removeKey ? { api_key: '' } : {}),
    };
    const done = {
      onSuccess: () => {
        showSaved(t('settings.ai.saved'));
        navigate(pathFor('settings-ai', {}, { space_id: spaceId }));
      },
      onError: (error: Error) => showSaveError(error, setErrors),
    };
    if (agent) update.mutate({ id: agent.id, ...body }, done);
    else create.mutate({ ...body, space_id: spaceId }, done);
  };
  return (
    <Stack gap="lg" maw={640}>
      <PageHeader title={agent ? agent.name : t('titles.settings-ai-create')} />
      <FormCard onSubmit={submit}>
        <TextInput
          label={t('settings.ai.name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={errors.name}
          maxLength={120}
          data-testid="ai-name"
        />
        <TextInput
          label={t('settings.ai.baseUrl')}
          description={t('settings.ai.baseUrlHint')}
          value={baseUrl}
          onChange={(e) => setBaseUrl(e.currentTarget.value)}
          error={errors.base_url}
          placeholder="https://api.openai.com/v1"
          data-testid="ai-base-url"
        />
        <TextInput
          label={t('settings.ai.model')}
          value={model}
          onChange={(e) => setModel(e.currentTarget.value)}
          error={errors.model}
          placeholder="gpt-4o-mini"
          data-testid="ai-model"
        />
        <PasswordInput
          label={t('settings.ai.apiKey')}
          description={agent?.api_key_set ? t('settings.ai.apiKeySet') : t('settings.ai.apiKeyHint')}
          value={apiKey}
          onChange={(e) => setApiKey(e.currentTarget.value)}
          error={errors.api_key}
          autoComplete="off"
          data-testid="ai-api-key"
        />
        {agent?.api_key_set && !apiKey && (
          <Checkbox
            label={t('settings.ai.apiKeyRemove')}
            checked={removeKey}
            onChange={(e) => setRemoveKey(e.currentTarget.checked)}
          />
        )}
        <Textarea
          label={t('settings.ai.instructions')}
          description={t('settings.ai.instructionsHint')}
          value={instructions}
          onChange={(e) => setInstructions(e.currentTarget.value)}
          error={errors.instructions}
          autosize
          minRows={3}
          maxRows={12}
          data-testid="ai-instructions"
        />
        <Textarea
          label={t('settings.ai.knowledge')}
          description={t('settings.ai.knowledgeHint')}
          value={knowledge}
          onChange={(e) => setKnowledge(e.currentTarget.value)}
          error={errors.knowledge}
          autosize
          minRows={3}
          maxRows={16}
          data-testid="ai-knowledge"
        />
        <Group>
          <Button type="submit" loading={create.isPending || update.isPending} data-testid="ai-save">
            {agent ? t('settings.ai.save') : t('settings.ai.create')}
          </Button>
          <Button variant="default" component={Link} to={pathFor('settings-ai', {}, { space_id: spaceId })}>
            {t('settings.ai.cancel')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

/** The AI assistant is off for the caller (the space flag or the role). */
function AiOff() {
  const { t } = useTranslation();
  return <SettingsOff title={t('settings.ai.heading')} text={t('settings.ai.off')} testId="ai-off" />;
}
