import type {
  ApiTokensWire,
  CreateApiTokenBody,
  CreatedApiTokenWire,
  CreatedWebhookWire,
  PresentedWebhook,
  PresentedWebhookDelivery,
  WebhookForm,
  WebhooksWire,
} from '@otklik/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidating } from './invalidating';

// Settings → API tokens and webhooks (issue 14 item 9).

export const apiAccessKeys = {
  tokens: ['api-tokens'] as const,
  webhooks: ['webhooks'] as const,
  deliveries: (endpointId: number) => ['webhooks', endpointId, 'deliveries'] as const,
};

/** `admin_space_ids`: spaces whose tokens the caller manages (administrator). */
export type ApiTokensList = ApiTokensWire;

export const useApiTokens = () =>
  useQuery({
    queryKey: apiAccessKeys.tokens,
    queryFn: ({ signal }) => api.get<ApiTokensList>('/v1/api_tokens', { signal }),
  });

export const useCreateApiToken = () =>
  useInvalidating(apiAccessKeys.tokens, (body: CreateApiTokenBody) =>
    api.post<CreatedApiTokenWire>('/v1/api_tokens', body),
  );

export const useRevokeApiToken = () =>
  useInvalidating(apiAccessKeys.tokens, (id: number) => api.delete<{ ok: true }>(`/v1/api_tokens/${id}`));

export const useWebhooks = (spaceId: number | null) =>
  useQuery({
    queryKey: [...apiAccessKeys.webhooks, spaceId],
    queryFn: ({ signal }) =>
      api.get<WebhooksWire>('/v1/webhooks', {
        signal,
        query: { space_id: spaceId ?? undefined },
      }),
    enabled: spaceId !== null,
  });

export const useCreateWebhook = () =>
  useInvalidating(apiAccessKeys.webhooks, (body: WebhookForm & { space_id: number }) =>
    api.post<CreatedWebhookWire>('/v1/webhooks', body),
  );
export const useUpdateWebhook = () =>
  useInvalidating(apiAccessKeys.webhooks, ({ id, ...body }: Partial<WebhookForm> & { id: number }) =>
    api.put<PresentedWebhook>(`/v1/webhooks/${id}`, body),
  );
export const useDeleteWebhook = () =>
  useInvalidating(apiAccessKeys.webhooks, (id: number) => api.delete<{ ok: true }>(`/v1/webhooks/${id}`));

/** The delivery log; refreshed every few seconds while open, so a queued delivery shows its outcome. */
export const useWebhookDeliveries = (endpointId: number) =>
  useQuery({
    queryKey: apiAccessKeys.deliveries(endpointId),
    queryFn: ({ signal }) =>
      api.get<{ items: PresentedWebhookDelivery[] }>(`/v1/webhooks/${endpointId}/deliveries`, { signal }),
    refetchInterval: 3_000,
  });

export const useRedeliver = () =>
  useInvalidating(apiAccessKeys.webhooks, (deliveryId: number) =>
    api.post<PresentedWebhookDelivery>(`/v1/webhooks/deliveries/${deliveryId}/redeliver`),
  );
