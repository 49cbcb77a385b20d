import { Alert, PasswordInput, Text, TextInput } from '@mantine/core';
import {
  createYouscanBody,
  type PresentedYouscan,
  updateYouscanBody,
  YOUSCAN_KEY_MAX,
  YOUSCAN_NAME_MAX,
} from '@otklik/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { useSaveYouscan } from '../../api/youscan';
import { ModalForm } from '../../components/ModalForm';
import { showSaved } from '../../components/notify';
import { useLiveErrors } from '../../features/settings-kit/useLiveErrors';

/** Connect a YouScan topic (space given) or change one; a blank key keeps the stored one. */
export function YouscanForm({
  spaceId,
  topic,
  onClose,
  onSaved,
}: {
  spaceId: number;
  topic?: PresentedYouscan;
  onClose: () => void;
  onSaved: (id: number) => void;
}) {
  const { t } = useTranslation();
  const save = useSaveYouscan();
  const [name, setName] = useState(topic?.name ?? '');
  const [topicId, setTopicId] = useState(topic?.topic_id ?? '');
  const [apiKey, setApiKey] = useState('');
  const { errors, check, onError } = useLiveErrors(
    topic ? updateYouscanBody : createYouscanBody,
    topic
      ? { name, topic_id: topicId, api_key: apiKey }
      : { space_id: spaceId, name, topic_id: topicId, api_key: apiKey },
  );

  const submit = () => {
    const data = check();
    if (!data) return;
    save.mutate(
      { ...data, id: topic?.id },
      {
        onSuccess: (saved) => {
          showSaved(t('settings.youscan.saved'));
          onSaved(saved.id);
        },
        onError: (error: Error) => onError(withYouscanField(error)),
      },
    );
  };

  return (
    <ModalForm
      title={topic ? t('settings.youscan.editTitle', { name: topic.name }) : t('settings.youscan.newTitle')}
      size="lg"
      onClose={onClose}
      onSubmit={submit}
      cancelLabel={t('settings.youscan.cancel')}
      submitLabel={topic ? t('settings.youscan.save') : t('settings.youscan.connectSubmit')}
      saving={save.isPending}
      submitTestId="youscan-save"
    >
      {!topic && (
        <Alert variant="light" color="gray" p="xs">
          <Text fz="xs">{t('settings.youscan.newHint')}</Text>
        </Alert>
      )}
      <TextInput
        label={t('settings.youscan.name')}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={errors.name}
        maxLength={YOUSCAN_NAME_MAX}
        data-autofocus
        data-testid="youscan-name"
      />
      <TextInput
        label={t('settings.youscan.topicId')}
        value={topicId}
        onChange={(e) => setTopicId(e.currentTarget.value)}
        error={errors.topic_id}
        maxLength={64}
        data-testid="youscan-topic-id"
      />
      <PasswordInput
        label={t('settings.youscan.apiKey')}
        description={topic ? t('settings.youscan.apiKeyKeep') : undefined}
        value={apiKey}
        onChange={(e) => setApiKey(e.currentTarget.value)}
        error={errors.api_key}
        maxLength={YOUSCAN_KEY_MAX}
        autoComplete="off"
        data-testid="youscan-api-key"
      />
    </ModalForm>
  );
}

/** YouScan refused the key or the topic: the refusal belongs under that field, as a field error does. */
function withYouscanField(error: Error): Error {
  if (!(error instanceof ApiError) || Object.keys(error.fields).length > 0) return error;
  const field =
    error.errorType === 'youscan_auth' ? 'api_key' : error.errorType === 'youscan_topic' ? 'topic_id' : null;
  return field
    ? new ApiError(error.status, { ...error.body, fields: { [field]: error.message } }, '')
    : error;
}
