import { Button, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ColorDot } from '../../components/ColorDot';
import { useShell } from '../../shell/ShellContext';
import { onlineChoices, spaceNeedingStatus } from './statusLogic';
import { useStatusReader } from './statusStore';
import { useChangeStatus } from './useStatusSync';

/**
 * docs/product/states.md: while the current status is offline, a blocking dialog forces choosing a non-hidden status —
 * no close button, no escape, no click outside. It closes once the server confirmed the new status.
 */
export function OfflineStatusDialog() {
  const { t } = useTranslation();
  const { config } = useShell();
  const current = useStatusReader();
  const { change, isPending, pendingStatus } = useChangeStatus();
  const spaceId = spaceNeedingStatus(
    config.spaces.map((space) => space.id),
    current,
    config.user_statuses,
  );
  const space = config.spaces.find((s) => s.id === spaceId);
  return (
    <Modal
      opened={spaceId !== null}
      onClose={() => {}}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      centered
      size="sm"
      title={t('shell.status.offlineTitle')}
      data-testid="offline-dialog"
    >
      {spaceId !== null && (
        <Stack gap="sm">
          <Text fz="sm" c="dimmed">
            {config.spaces.length > 1 && space
              ? t('shell.status.offlineTextSpace', { space: space.name })
              : t('shell.status.offlineText')}
          </Text>
          {onlineChoices(config.user_statuses, spaceId).map((status) => (
            <Button
              key={status.id}
              variant="default"
              justify="flex-start"
              leftSection={<ColorDot color={status.color} size={12} />}
              loading={isPending && pendingStatus === status.id}
              disabled={isPending && pendingStatus !== status.id}
              onClick={() => void change(spaceId, status.id)}
              data-testid={`offline-choice-${status.id}`}
            >
              {status.name}
            </Button>
          ))}
        </Stack>
      )}
    </Modal>
  );
}
