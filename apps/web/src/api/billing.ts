import type { BillingView, CheckoutBody, CheckoutView, PaymentView } from '@otklik/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './instance';
import { useKeptMutation } from './invalidating';
import { queryKeys } from './keys';

// Settings → Billing: the space's billing state, checkout, payment reports and the data archive.

export function useBilling(spaceId: number | null) {
  return useQuery({
    queryKey: queryKeys.billing(spaceId ?? 0),
    queryFn: ({ signal }) => api.get<BillingView>('/v1/billing', { query: { space_id: spaceId! }, signal }),
    enabled: spaceId !== null,
  });
}

export function useCheckout() {
  return useKeptMutation({
    mutationFn: (body: CheckoutBody) => api.post<CheckoutView>('/v1/billing/checkout', body),
  });
}

/** One payment; polled while the provider has not confirmed it. A settled one refreshes the config. */
export function usePayment(id: number) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.payment(id),
    queryFn: async ({ signal }) => {
      const payment = await api.get<PaymentView>(`/v1/billing/payments/${id}`, { signal });
      if (payment.state !== 'pending') {
        await queryClient.invalidateQueries({ queryKey: queryKeys.config });
        await queryClient.invalidateQueries({ queryKey: queryKeys.billing(payment.space_id) });
      }
      return payment;
    },
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? 2_000 : false),
  });
}

/** Downloads the space's JSON archive (the body is streamed by the server; saved as a file here). */
export async function downloadExport(spaceId: number) {
  const blob = await api.get<Blob>('/v1/billing/export', {
    query: { space_id: spaceId },
    responseType: 'blob',
  });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `otklik-space-${spaceId}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The payer came back through the provider's cancel link: close the pending payment. */
export function useCancelPayment() {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: (id: number) => api.post<PaymentView>(`/v1/billing/payments/${id}/cancel`),
    onSuccess: (payment) => queryClient.setQueryData(queryKeys.payment(payment.id), payment),
  });
}
