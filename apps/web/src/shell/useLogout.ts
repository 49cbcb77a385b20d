import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api } from '../api/instance';
import { clearAppStorage, loginPath, setLogoutTarget } from '../api/session';

/**
 * docs/product/states.md: logout revokes the token, clears storage and goes to /login (with `redirect` back to the
 * current page when asked, e.g. "switch user" on the no-access page).
 */
export function useLogout() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const here = location.pathname + location.search;

  return useCallback(
    async (options: { withRedirect?: boolean } = {}) => {
      const target = options.withRedirect ? loginPath(here) : '/login';
      // Clearing the token makes the auth guard leave the page; tell it where to go.
      setLogoutTarget(target);
      await api.logout();
      clearAppStorage();
      queryClient.clear();
      await navigate(target, { replace: true });
    },
    [navigate, here, queryClient],
  );
}
