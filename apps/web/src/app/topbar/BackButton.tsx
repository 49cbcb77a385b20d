import { ActionIcon, Tooltip } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useMatches, useNavigate } from 'react-router';
import { backTarget } from '../../shell/routing';
import { isRouteHandle } from '../routeHandle';

/** docs/product/screens-and-routes.md back arrow on detail pages: back in history when there is one, otherwise to the parent page. */
export function BackButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const name = useMatches()
    .map((match) => match.handle)
    .filter(isRouteHandle)
    .at(-1)?.name;
  const target = backTarget(name, pathname);
  if (!target) return null;
  const onClick = () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate(target);
  };
  return (
    <Tooltip label={t('shell.back')} openDelay={300}>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        onClick={onClick}
        aria-label={t('shell.back')}
        data-testid="back-button"
      >
        <IconArrowLeft size={20} />
      </ActionIcon>
    </Tooltip>
  );
}
