import { Box, Group, Loader, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconCheck, IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { UserStatus } from '../../api/types';
import { ColorDot } from '../../components/ColorDot';
import { useShell } from '../../shell/ShellContext';
import { pickableStatuses } from '../status/statusLogic';
import { useStatusReader } from '../status/statusStore';
import { useChangeStatus } from '../status/useStatusSync';

/** docs/product/screens-and-routes.md user-status dropdown: the statuses of the user's spaces; picking one saves it (docs/product/states.md). */
export function StatusMenu() {
  const { t } = useTranslation();
  const { config } = useShell();
  const current = useStatusReader();
  const { change, isPending, pendingStatus } = useChangeStatus();
  const spaces = config.spaces.filter((space) => pickableStatuses(config.user_statuses, space.id).length > 0);
  if (spaces.length === 0) return null;

  const first = spaces[0];
  const shown: UserStatus | undefined = config.user_statuses.find((s) => s.id === current(first.id));
  const multi = spaces.length > 1;

  return (
    <Menu position="bottom-end" width={240} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton
          aria-label={t('shell.status.label', { status: shown?.name ?? t('shell.status.none') })}
          data-testid="status-menu"
          px={8}
          py={6}
          style={{ borderRadius: 8 }}
        >
          <Group gap={6} wrap="nowrap">
            <ColorDot color={shown?.color} size={12} />
            <Text fz="sm" fw={500} maw={120} truncate visibleFrom="md" data-testid="status-current">
              {shown?.name ?? t('shell.status.none')}
            </Text>
            <Box visibleFrom="md" style={{ display: 'flex' }}>
              <IconChevronDown size={14} />
            </Box>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown data-testid="status-dropdown">
        {spaces.map((space, index) => (
          <Box key={space.id}>
            {index > 0 && <Menu.Divider />}
            <Menu.Label>{multi ? space.name : t('shell.status.heading')}</Menu.Label>
            {pickableStatuses(config.user_statuses, space.id).map((status) => {
              const active = current(space.id) === status.id;
              return (
                <Menu.Item
                  key={status.id}
                  leftSection={<ColorDot color={status.color} />}
                  rightSection={
                    isPending && pendingStatus === status.id ? (
                      <Loader size={14} />
                    ) : active ? (
                      <IconCheck size={14} />
                    ) : null
                  }
                  onClick={() => {
                    if (!active) void change(space.id, status.id);
                  }}
                  fw={active ? 600 : undefined}
                  data-testid={`status-option-${status.id}`}
                >
                  {status.name}
                </Menu.Item>
              );
            })}
          </Box>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
