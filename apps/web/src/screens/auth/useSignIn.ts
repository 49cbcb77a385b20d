import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/instance';
import type { TokenResponse } from '../../api/types';

/** Save a fresh token, forget the previous user's cached data, and open the target page. */
export function useSignIn() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    (token: TokenResponse, target = '/') => {
      queryClient.clear();
      api.setToken(token);
      void navigate(target, { replace: true });
    },
    [navigate, queryClient],
  );
}
