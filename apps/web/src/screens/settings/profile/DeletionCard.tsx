import { Alert, Anchor, Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../api/client';
import { useDeletionMutations, useMyDeletionRequests } from '../../../api/me';
import { SectionCard } from './SectionCard';

/**
 * Data deletion (issue 13 item 11): says what goes, sends the request, shows its number and status
 * page, and cancels it while it is pending. The instance operator carries it out.
 */
export function DeletionCard() {
  const { t } = useTranslation();
  const { data } = useMyDeletionRequests();
  const { request, cancel } = useDeletionMutations();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = data?.requests.find((r) => r.status === 'pending' || r.status === 'processing');

  const run = async (call: () => Promise<unknown>) => {
    setError(null);
    try {
      await call();
      setConfirming(false);
    } catch (e) {
      if (e instanceof ApiError) setError(e.message);
    }
  };

  return (
    <SectionCard title={t('account.deletionHeading')} description={t('account.deletionText')}>
      {data && data.spaces.length > 0 && (
        <Text fz="sm">
          {t('account.deletionSpaces', { names: data.spaces.map((s) => `«${s.name}»`).join(', ') })}
        </Text>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {open ? (
        <Stack gap="xs" data-testid="deletion-open">
          <Text fz="sm">{t('deleteRequest.id')}:</Text>
          <Code block data-testid="deletion-id" style={{ wordBreak: 'break-all' }}>
            {open.id}
          </Code>
          <Group gap="sm">
            <Badge variant="light" color="orange" tt="none">
              {t(`deletionStatus.${open.status}`)}
            </Badge>
            <Anchor component={Link} to={`/deleterequest/${open.id}`} fz="sm">
              {t('account.deletionStatusLink')}
            </Anchor>
          </Group>
          {open.status === 'pending' && (
            <Group>
              <Button
                variant="default"
                onClick={() => run(() => cancel.mutateAsync(open.id))}
                loading={cancel.isPending}
              >
                {t('account.deletionCancel')}
              </Button>
            </Group>
          )}
        </Stack>
      ) : confirming ? (
        <Stack gap="xs">
          <Text fz="sm" fw={600}>
            {t('account.deletionConfirm')}
          </Text>
          <Group>
            <Button color="red" onClick={() => run(() => request.mutateAsync())} loading={request.isPending}>
              {t('account.deletionRequest')}
            </Button>
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Group>
          <Button color="red" variant="light" onClick={() => setConfirming(true)}>
            {t('account.deletionRequest')}
          </Button>
        </Group>
      )}
    </SectionCard>
  );
}
