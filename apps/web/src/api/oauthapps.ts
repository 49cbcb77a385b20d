import type {
  AuthorizeRequest,
  OAuthAppForm,
  OAuthAppsWire,
  OAuthAppView,
  OAuthAppWithSecret,
  OAuthConsentWire,
  OAuthGrantView,
  OAuthRedirectWire,
} from '@otklik/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidating } from './invalidating';

// Third-party apps (/oauth): the administrator's registered OAuth2 clients, the apps the user allowed,
// and the consent screen's check and answer.

const appsKey = ['oauth', 'apps'] as const;
const grantsKey = ['oauth', 'grants'] as const;

/** `can_manage`: spaces where the caller may register apps. */
export type OAuthAppsList = OAuthAppsWire;

export const useOAuthApps = () =>
  useQuery({
    queryKey: appsKey,
    queryFn: ({ signal }) => api.get<OAuthAppsList>('/v1/oauth/apps', { signal }),
  });

export const useOAuthGrants = () =>
  useQuery({
    queryKey: grantsKey,
    queryFn: ({ signal }) =>
      api.get<{ items: OAuthGrantView[] }>('/v1/oauth/grants', { signal }).then((r) => r.items),
  });

export const useCreateOAuthApp = () =>
  useInvalidating(['oauth'], (body: OAuthAppForm & { space_id: number }) =>
    api.post<OAuthAppWithSecret>('/v1/oauth/apps', body),
  );
export const useUpdateOAuthApp = () =>
  useInvalidating(['oauth'], ({ id, ...body }: OAuthAppForm & { id: number }) =>
    api.put<OAuthAppView>(`/v1/oauth/apps/${id}`, body),
  );
export const useRegenerateSecret = () =>
  useInvalidating(['oauth'], (id: number) => api.post<OAuthAppWithSecret>(`/v1/oauth/apps/${id}/secret`));
export const useDeleteOAuthApp = () =>
  useInvalidating(['oauth'], (id: number) => api.delete<{ message: string }>(`/v1/oauth/apps/${id}`));
export const useRevokeGrant = () =>
  useInvalidating(['oauth'], (appId: number) => api.delete<{ message: string }>(`/v1/oauth/grants/${appId}`));

/** The consent screen's question, or (a malformed request the app must hear about) where to send the browser. */
export type AuthorizeCheck = (OAuthConsentWire & { redirect_to?: undefined }) | OAuthRedirectWire;

export const useAuthorizeCheck = (request: AuthorizeRequest) =>
  useQuery({
    queryKey: ['oauth', 'authorize', request],
    queryFn: ({ signal }) =>
      api.get<AuthorizeCheck>('/v1/oauth/authorize', {
        signal,
        query: request as unknown as Record<string, string>,
        forbiddenPage: false,
      }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const decideAuthorization = (request: AuthorizeRequest, decision: 'allow' | 'deny') =>
  api.post<OAuthRedirectWire>('/v1/oauth/authorize', { ...request, decision }, { forbiddenPage: false });
