import { Alert, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
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
import { showError, showSaved } from '../../components/notify';
import { useMessage } from '../../i18n/useLocale';

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
  const message = useMessage();
  const save = useSaveYouscan();
  const [name, setName] = useState(topic?.name ?? '');
  const [topicId, setTopicId] = useState(topic?.topic_id ?? '');
  const [apiKey, setApiKey] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const values = topic
    ? { name, topic_id: topicId, api_key: apiKey }
    : { space_id: spaceId, name, topic_id: topicId, api_key: apiKey };
  const schema = topic ? updateYouscanBody : createYouscanBody;
  const live = submitted ? schema.safeParse(values) : null;
  const errors: Record<string, string> = { ...serverErrors };
  if (live && !live.success)
    for (const issue of live.error.issues) errors[String(issue.path[0])] ??= message(issue.message);

  const submit = () => {
    setSubmitted(true);
    const parsed = schema.safeParse(values);
    if (!parsed.success) return;
    setServerErrors({});
    save.mutate(
      { ...parsed.data, id: topic?.id },
      {
        onSuccess: (saved) => {
          showSaved(t('settings.youscan.saved'));
          onSaved(saved.id);
        },
        onError: (error: Error) => {
          if (error instanceof ApiError && Object.keys(error.fields).length > 0)
            setServerErrors(error.fields);
          else if (error instanceof ApiError && error.errorType === 'youscan_auth')
            setServerErrors({ api_key: error.message });
          else if (error instanceof ApiError && error.errorType === 'youscan_topic')
            setServerErrors({ topic_id: error.message });
          else showError(error);
        },
      },
    );
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={topic ? t('settings.youscan.editTitle', { name: topic.name }) : t('settings.youscan.newTitle')}
      size="lg"
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
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
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('settings.youscan.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="youscan-save">
              {topic ? t('settings.youscan.save') : t('settings.youscan.connectSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
