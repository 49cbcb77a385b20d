import type { ReferralView } from '@otklik/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './instance';
import { useKeptMutation } from './invalidating';
import { queryKeys } from './keys';

// Settings → Referral program: the partner's link, code, signups, payments, share and payouts.

export function useReferral() {
  return useQuery({
    queryKey: queryKeys.referral,
    queryFn: ({ signal }) => api.get<ReferralView>('/v1/referral', { signal }),
  });
}

export function useRequestPayout() {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: (currency: string) => api.post<ReferralView>('/v1/referral/payouts', { currency }),
    onSuccess: (view) => queryClient.setQueryData(queryKeys.referral, view),
  });
}
