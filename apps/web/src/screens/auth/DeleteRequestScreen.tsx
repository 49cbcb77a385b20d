import { Center, Code, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { authApi } from '../../api/auth';
import { ApiError } from '../../api/client';
import { AuthLayout } from '../../components/AuthLayout';
import { ResultCard } from '../../components/ResultCard';
import { useLocale } from '../../i18n/useLocale';

/**
 * /deleterequest/{id}: the real state of a data deletion request (GET /v1/deleterequest/{id}: status
 * and dates only); an unknown id is "not found".
 */
export default function DeleteRequestScreen() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { id = '' } = useParams();
  const { data, error } = useQuery({
    queryKey: ['deleterequest', id],
    queryFn: () => authApi.deletionRequest(id),
    retry: false,
  });
  if (error) {
    const notFound = error instanceof ApiError && error.status === 404;
    return (
      <ResultCard
        kind="error"
        title={notFound ? t('deletionStatus.notFoundHeading') : t('system.errorHeading')}
        action={{ label: t('common.toHome'), to: '/' }}
      >
        <Text c="dimmed" data-testid="delete-request-missing">
          {notFound ? t('deletionStatus.notFoundText') : error.message}
        </Text>
      </ResultCard>
    );
  }
  if (!data) {
    return (
      <AuthLayout>
        <Center py="lg">
          <Loader />
        </Center>
      </AuthLayout>
    );
  }
  const date = (unix: number) =>
    new Date(unix * 1000).toLocaleString(locale === 'ru' ? 'ru-RU' : 'en-GB', {
      dateStyle: 'medium',
      timeStyle: 'short',
    });
  return (
    <ResultCard kind={data.status === 'cancelled' ? 'error' : 'success'} title={t('deleteRequest.heading')}>
      <Text fw={600} fz="lg" data-testid="delete-request-status">
        {t(`deletionStatus.${data.status}`)}
      </Text>
      <Stack gap={4} align="center">
        <Text c="dimmed" fz="sm">
          {t('deleteRequest.id')}:
        </Text>
        <Code fz="sm" data-testid="delete-request-id" style={{ wordBreak: 'break-all' }}>
          {data.id}
        </Code>
      </Stack>
      <Group gap="lg" justify="center">
        <Text c="dimmed" fz="sm">
          {t('deletionStatus.created')}: {date(data.created_at)}
        </Text>
        <Text c="dimmed" fz="sm">
          {t('deletionStatus.updated')}: {date(data.updated_at)}
        </Text>
      </Group>
    </ResultCard>
  );
}
