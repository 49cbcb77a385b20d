import type { Locale } from '@otklik/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { api } from './instance';
import type { Me, MessageResponse, OtpSetup } from './types';

// The signed-in user: profile, email, password, two-factor — SPEC §3, §7.

export const meQueryKey = ['me'] as const;

/** Whether a token is stored (re-renders on login, refresh, logout). */
export function useHasToken(): boolean {
  return useSyncExternalStore(api.subscribe, () => api.getToken() !== null);
}

export function useMe() {
  const hasToken = useHasToken();
  return useQuery({ queryKey: meQueryKey, queryFn: () => api.get<Me>('/v1/me'), enabled: hasToken });
}

function useMeMutation<TBody, TResult>(call: (body: TBody) => Promise<TResult>, refetchMe = true) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      if (refetchMe) await queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}

export const useUpdateMe = () =>
  useMeMutation((body: { name: string; locale: Locale }) => api.put<Me | MessageResponse>('/v1/me', body));

export const useChangePassword = () =>
  useMeMutation(
    (body: { password: string; new_password: string }) => api.put<MessageResponse>('/v1/me/password', body),
    false,
  );

export const useChangeEmail = () =>
  useMeMutation((body: { email: string }) => api.put<MessageResponse>('/v1/me/email', body));

export const useSendConfirmEmail = () =>
  useMeMutation(
    (body: { email: string }) => api.post<MessageResponse>('/v1/send_confirm_email', body),
    false,
  );

export const useStartOtp = () => useMeMutation(() => api.post<OtpSetup>('/v1/me/otp'), false);

export const useConfirmOtp = () =>
  useMeMutation((body: { code: string }) => api.post<MessageResponse>('/v1/me/otp/confirm', body));

export const useDisableOtp = () =>
  useMeMutation((body: { password: string }) => api.delete<MessageResponse>('/v1/me/otp', body));
