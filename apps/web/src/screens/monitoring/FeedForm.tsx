import { TextInput } from '@mantine/core';
import {
  createMonitoringFeedBody,
  MONITORING_FEED_NAME_MAX,
  MONITORING_FEED_URL_MAX,
  type PresentedMonitoringFeed,
  updateMonitoringFeedBody,
} from '@otklik/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaveMonitoringFeed } from '../../api/monitoring-feeds';
import { ModalForm } from '../../components/ModalForm';
import { showSaved } from '../../components/notify';
import { useLiveErrors } from '../../features/settings-kit/useLiveErrors';

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
  const save = useSaveMonitoringFeed();
  const [name, setName] = useState(feed?.name ?? '');
  const [url, setUrl] = useState(feed?.url ?? '');
  const { errors, check, onError } = useLiveErrors(
    feed ? updateMonitoringFeedBody : createMonitoringFeedBody,
    feed ? { name, url } : { space_id: spaceId, name, url },
  );

  const submit = () => {
    const data = check();
    if (!data) return;
    save.mutate(
      { ...data, id: feed?.id },
      {
        onSuccess: () => {
          showSaved(t('settings.feeds.saved'));
          onClose();
        },
        onError,
      },
    );
  };

  return (
    <ModalForm
      title={feed ? t('settings.feeds.editTitle', { name: feed.name }) : t('settings.feeds.newTitle')}
      onClose={onClose}
      onSubmit={submit}
      cancelLabel={t('settings.feeds.cancel')}
      submitLabel={t('settings.feeds.save')}
      saving={save.isPending}
      submitTestId="feed-save"
    >
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
    </ModalForm>
  );
}
