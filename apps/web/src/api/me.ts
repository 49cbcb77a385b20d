import type { Locale } from '@otklik/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeletionRequestStatus } from './auth';
import { api } from './instance';
import { useKeptMutation } from './invalidating';
import { useHasToken } from './token';
import type { Me, MessageResponse, MessageWithToken, OtpSetup } from './types';

// The signed-in user: profile, email, password, two-factor — docs/product/entities.md, api.md.

export const meQueryKey = ['me'] as const;

export { useHasToken };

export function useMe() {
  const hasToken = useHasToken();
  return useQuery({ queryKey: meQueryKey, queryFn: () => api.get<Me>('/v1/me'), enabled: hasToken });
}

function useMeMutation<TBody, TResult>(call: (body: TBody) => Promise<TResult>, refetchMe = true) {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: call,
    onSuccess: async () => {
      if (refetchMe) await queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}

/**
 * A password change or 2FA switched on ends the other sessions and rotates this one: the answer carries
 * the new token pair, stored before anything else is asked with the old one.
 */
async function keepRotatedToken(call: Promise<MessageWithToken>): Promise<MessageWithToken> {
  const result = await call;
  if (result.token) api.setToken(result.token);
  return result;
}

export const useUpdateMe = () =>
  useMeMutation((body: { name: string; locale: Locale }) => api.put<Me | MessageResponse>('/v1/me', body));

export const useChangePassword = () =>
  useMeMutation(
    (body: { password: string; new_password: string }) =>
      keepRotatedToken(api.put<MessageWithToken>('/v1/me/password', body)),
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
  useMeMutation((body: { code: string }) =>
    keepRotatedToken(api.post<MessageWithToken>('/v1/me/otp/confirm', body)),
  );

export const useDisableOtp = () =>
  useMeMutation((body: { password: string }) => api.delete<MessageResponse>('/v1/me/otp', body));

// Linked social sign-ins (docs/product/api.md v1/me/social) and data deletion requests (issue 13 item 11).

export type SocialProviderId = 'vk' | 'facebook' | 'google' | 'yandex';
export const socialQueryKey = ['me', 'social'] as const;
export const deletionQueryKey = ['me', 'deleterequest'] as const;

export const useLinkedSocial = () =>
  useQuery({
    queryKey: socialQueryKey,
    queryFn: () => api.get<{ providers: SocialProviderId[] }>('/v1/me/social'),
  });

export function useSocialMutations() {
  const queryClient = useQueryClient();
  const store = (data: { providers: SocialProviderId[] }) => queryClient.setQueryData(socialQueryKey, data);
  const link = useKeptMutation({
    mutationFn: (body: { provider: string; code: string; state: string; redirect_uri: string }) =>
      api.post<{ providers: SocialProviderId[] }>('/v1/me/social', body),
    onSuccess: store,
  });
  const unlink = useKeptMutation({
    mutationFn: (provider: string) =>
      api.delete<{ providers: SocialProviderId[] }>(`/v1/me/social/${encodeURIComponent(provider)}`),
    onSuccess: store,
  });
  return { link, unlink };
}

export interface MyDeletionRequests {
  requests: DeletionRequestStatus[];
  spaces: { id: number; name: string }[];
}

export const useMyDeletionRequests = () =>
  useQuery({
    queryKey: deletionQueryKey,
    queryFn: () => api.get<MyDeletionRequests>('/v1/me/deleterequest'),
  });

export function useDeletionMutations() {
  const queryClient = useQueryClient();
  const store = (data: MyDeletionRequests) => queryClient.setQueryData(deletionQueryKey, data);
  const request = useKeptMutation({
    mutationFn: () =>
      api.post<MyDeletionRequests & { request: DeletionRequestStatus }>('/v1/me/deleterequest'),
    onSuccess: store,
  });
  const cancel = useKeptMutation({
    mutationFn: (id: string) =>
      api.delete<MyDeletionRequests>(`/v1/me/deleterequest/${encodeURIComponent(id)}`),
    onSuccess: store,
  });
  return { request, cancel };
}
