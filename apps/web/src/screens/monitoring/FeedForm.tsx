import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import {
  createMonitoringFeedBody,
  MONITORING_FEED_NAME_MAX,
  MONITORING_FEED_URL_MAX,
  type PresentedMonitoringFeed,
  updateMonitoringFeedBody,
} from '@otklik/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { useSaveMonitoringFeed } from '../../api/monitoring-feeds';
import { showError, showSaved } from '../../components/notify';
import { useMessage } from '../../i18n/useLocale';

/** Add an RSS/Atom source to a space (fetched at once) or change one. */
export function FeedForm({
  spaceId,
  feed,
  onClose,
}: {
  spaceId: number;
  feed?: PresentedMonitoringFeed;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const message = useMessage();
  const save = useSaveMonitoringFeed();
  const [name, setName] = useState(feed?.name ?? '');
  const [url, setUrl] = useState(feed?.url ?? '');
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const values = feed ? { name, url } : { space_id: spaceId, name, url };
  const schema = feed ? updateMonitoringFeedBody : createMonitoringFeedBody;
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
      { ...parsed.data, id: feed?.id },
      {
        onSuccess: () => {
          showSaved(t('settings.feeds.saved'));
          onClose();
        },
        onError: (error: Error) => {
          if (error instanceof ApiError && Object.keys(error.fields).length > 0)
            setServerErrors(error.fields);
          else showError(error);
        },
      },
    );
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={feed ? t('settings.feeds.editTitle', { name: feed.name }) : t('settings.feeds.newTitle')}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('settings.feeds.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            maxLength={MONITORING_FEED_NAME_MAX}
            data-autofocus
            data-testid="feed-name"
          />
          <TextInput
            label={t('settings.feeds.url')}
            description={t('settings.feeds.urlHint')}
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={errors.url}
            maxLength={MONITORING_FEED_URL_MAX}
            type="url"
            data-testid="feed-url"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('settings.feeds.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} data-testid="feed-save">
              {t('settings.feeds.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
