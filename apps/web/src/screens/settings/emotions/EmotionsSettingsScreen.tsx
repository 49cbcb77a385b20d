import {
  ActionIcon,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  type EmotionSettingsDto,
  type EmotionWord,
  SENTIMENTS,
  updateEmotionSettingsBody,
} from '@otklik/shared';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useEmotionSettings, useSaveEmotionSettings } from '../../../api/emotions';
import { showError, showSaved } from '../../../components/notify';
import { PageHeader } from '../../../components/PageHeader';
import { PageNotice } from '../../../components/PageNotice';
import { QueryState } from '../../../components/QueryState';
import { SpaceSelect } from '../../../components/SpaceSelect';
import { useManagedSpace } from '../../../features/settings-kit/useManagedSpace';
import { useZodForm } from '../../../forms/useZodForm';

// settings/emotions (issue 21): the classifier per space — on or off — and the space's own words.

function EmotionsForm({ settings }: { settings: EmotionSettingsDto }) {
  const { t } = useTranslation();
  const save = useSaveEmotionSettings();
  const { form, handleSubmit, setServerErrors } = useZodForm(updateEmotionSettingsBody, {
    space_id: settings.space_id,
    enabled: settings.enabled,
    words: settings.words as EmotionWord[],
  });
  const words = form.values.words;
  return (
    <form
      onSubmit={handleSubmit(async (values) => {
        try {
          await save.mutateAsync(values);
          showSaved(t('shell.emotions.settings.saved'));
        } catch (error) {
          if (!setServerErrors(error)) showError(error);
        }
      })}
    >
      <Stack gap="md">
        <Switch
          label={t('shell.emotions.settings.enabled')}
          description={t('shell.emotions.settings.enabledHint')}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
          data-testid="emotions-enabled"
        />
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Text fw={600}>{t('shell.emotions.settings.words')}</Text>
            <Text size="sm" c="dimmed">
              {t('shell.emotions.settings.wordsHint')}
            </Text>
            {words.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('shell.emotions.settings.empty')}
              </Text>
            )}
            {words.map((_, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the index is their identity
              <Group key={index} gap="xs" align="flex-start" wrap="nowrap" data-testid="emotion-word-row">
                <TextInput
                  style={{ flex: 1, minWidth: 0 }}
                  aria-label={t('shell.emotions.settings.word')}
                  placeholder={t('shell.emotions.settings.word')}
                  {...form.getInputProps(`words.${index}.word`)}
                  data-testid="emotion-word"
                />
                <Select
                  w={150}
                  aria-label={t('shell.emotions.settings.meaning')}
                  data={SENTIMENTS.map((value) => ({ value, label: t(`shell.emotions.sentiment.${value}`) }))}
                  allowDeselect={false}
                  {...form.getInputProps(`words.${index}.sentiment`)}
                  data-testid="emotion-word-sentiment"
                />
                <Tooltip label={t('shell.emotions.settings.remove')}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={t('shell.emotions.settings.remove')}
                    onClick={() => form.removeListItem('words', index)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ))}
            <Group>
              <Button
                variant="light"
                leftSection={<IconPlus size={16} />}
                onClick={() => form.insertListItem('words', { word: '', sentiment: 'positive' })}
                data-testid="emotion-word-add"
              >
                {t('shell.emotions.settings.add')}
              </Button>
            </Group>
          </Stack>
        </Paper>
        <Group>
          <Button type="submit" loading={save.isPending} data-testid="emotions-save">
            {t('shell.emotions.settings.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export default function EmotionsSettingsScreen() {
  const { t } = useTranslation();
  const { spaces, spaceId, setSpace } = useManagedSpace('emotions.manage');
  const settings = useEmotionSettings(spaceId);
  if (spaceId === null)
    return <PageNotice title={t('titles.settings-emotions')} text={t('shell.emotions.settings.off')} />;
  return (
    <Stack>
      <PageHeader title={t('titles.settings-emotions')} description={t('shell.emotions.settings.hint')} />
      <SpaceSelect spaces={spaces} value={spaceId} onChange={setSpace} />
      <QueryState queries={[settings]}>
        {() => <EmotionsForm key={spaceId} settings={settings.data!} />}
      </QueryState>
    </Stack>
  );
}
