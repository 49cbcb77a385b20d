import type {
  AccountRevealWire,
  AccountSetupWire,
  ConnectableProviderWire,
  ConnectedAccountWire,
  OAuthConnectWire,
} from '@otklik/shared';
import { useQuery } from '@tanstack/react-query';
import type { Account, AccountSettingsValue, ConnectedAccount } from './inboxTypes';
import { api } from './instance';
import { useInvalidatingAll } from './invalidating';
import { queryKeys } from './keys';

// Settings → accounts (docs/product/screens-and-routes.md accounts, add, add/success, {id}, {id}/exclude, exclude_messages, chats,
// stickers, reactions). The list itself is GET /v1/objects (the shell's useObjects).

export const accountKeys = {
  account: (id: number) => ['accounts', id] as const,
  sandboxUrl: (id: number) => ['accounts', id, 'sandbox_url'] as const,
  setup: (id: number) => ['accounts', id, 'setup'] as const,
  connectable: ['accounts', 'connectable'] as const,
};

/** What any change to an account reloads: the accounts list (GET /v1/objects), their errors, the account pages. */
const accountQueries = [queryKeys.objects, queryKeys.accountErrors, ['accounts']];

export const useAccount = (id: number) =>
  useQuery({
    queryKey: accountKeys.account(id),
    queryFn: ({ signal }) => api.get<Account>(`/v1/objects/${id}`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });

/** The customer page of a sandbox account (administrators). */
export const useSandboxUrl = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: accountKeys.sandboxUrl(id),
    queryFn: ({ signal }) => api.get<{ sandbox_url: string }>(`/v1/objects/${id}/sandbox_url`, { signal }),
    enabled: enabled && id > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** What an administrator sets up on the network's side by hand (WhatsApp: callback URL, verify token). */
export const useAccountSetup = (id: number) =>
  useQuery({
    queryKey: accountKeys.setup(id),
    queryFn: ({ signal }) => api.get<AccountSetupWire>(`/v1/objects/${id}/setup`, { signal }),
    enabled: id > 0,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** GET /v1/providers/connectable: a network this server connects, and how. */
export type ConnectableProvider = ConnectableProviderWire;

/** What this server can connect (the add-account screen offers these; the rest are "coming soon"). */
export const useConnectableProviders = () =>
  useQuery({
    queryKey: accountKeys.connectable,
    queryFn: ({ signal }) =>
      api.get<{ items: ConnectableProvider[] }>('/v1/providers/connectable', { signal }),
    select: (data) => data.items,
    staleTime: 5 * 60_000,
  });

export interface ConnectBody {
  provider: string;
  name?: string;
  space_id?: number;
  company_id?: number | null;
  /** Typed credentials by CONNECT_FIELDS name (bot token, keys). */
  credentials?: Record<string, string>;
}

export const useConnectAccount = () =>
  useInvalidatingAll([...accountQueries, queryKeys.counts], (body: ConnectBody) =>
    api.post<ConnectedAccountWire>('/v1/objects', body),
  );

export interface UpdateAccountBody {
  id: number;
  name?: string;
  company_id?: number | null;
  settings?: Partial<AccountSettingsValue>;
}

export const useUpdateAccount = () =>
  useInvalidatingAll(accountQueries, ({ id, ...body }: UpdateAccountBody) =>
    api.put<Account>(`/v1/objects/${id}`, body),
  );

export const useDeleteAccount = () =>
  useInvalidatingAll([...accountQueries, queryKeys.counts, ['inbox']], (id: number) =>
    api.delete<{ message: string }>(`/v1/objects/${id}`),
  );

/** A new ingestion token or sandbox address; the old one stops working. */
export const useRotateToken = () =>
  useInvalidatingAll(accountQueries, (id: number) => api.post<AccountRevealWire>(`/v1/objects/${id}/token`));

export const useClearAccountError = () =>
  useInvalidatingAll(accountQueries, (id: number) => api.post<Account>(`/v1/objects/${id}/clear_error`));

/** New credentials for an account whose token stopped working; the error clears, history stays. */
export const useReconnectAccount = () =>
  useInvalidatingAll(
    accountQueries,
    ({ id, credentials }: { id: number; credentials: Record<string, string> }) =>
      api.post<Account>(`/v1/objects/${id}/reconnect`, { credentials }),
  );

/** The network's authorization address for the connect popup (GET /v1/{provider}/auth/start). */
export const startAccountOAuth = (
  provider: string,
  query: { redirect_uri: string; space_id?: number; login?: string },
) => api.get<{ url: string }>(`/v1/${provider}/auth/start`, { query });

export interface OAuthConnectBody {
  code: string;
  redirect_uri: string;
  state?: string;
}

/** SPEC §7 POST v1/tpulse/check_auth: Pulse's signed check becomes a connected (or the existing) account. */
export const finishPulseCheck = (check: string) =>
  api.post<{ status: 'ok'; source: string; object: ConnectedAccount; existing: boolean }>(
    '/v1/tpulse/check_auth',
    { check },
  );

/** docs/product/api.md POST v1/{provider}/auth: the popup's code becomes a connected account. */
export const finishAccountOAuth = (provider: string, body: OAuthConnectBody) =>
  api.post<OAuthConnectWire>(`/v1/${provider}/auth`, body);
