import { Code, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ResultCard } from '../../components/ResultCard';

/** /deleterequest/{id}: status page of a data deletion request (linked from the social networks). */
export default function DeleteRequestScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  return (
    <ResultCard kind="success" title={t('deleteRequest.heading')}>
      <Text>{t('deleteRequest.received')}</Text>
      <Group gap="xs" justify="center">
        <Text c="dimmed" fz="sm">
          {t('deleteRequest.id')}:
        </Text>
        <Code fz="sm" data-testid="delete-request-id">
          {id}
        </Code>
      </Group>
      <Text c="dimmed" fz="sm">
        {t('deleteRequest.text')}
      </Text>
    </ResultCard>
  );
}
