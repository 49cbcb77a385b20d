import { type EmailWire, type Locale, WEB_CLIENT_ID } from '@otklik/shared';
import { TOKEN_PATH, WEB_CLIENT_SECRET } from './client';
import { api } from './instance';
import type {
  MessageResponse,
  MessageWithToken,
  ObjectsResponse,
  SignupResponse,
  TokenResponse,
} from './types';

// Auth calls — docs/product/api.md. All are public (no bearer, no refresh).

const credentials = { client_id: WEB_CLIENT_ID, client_secret: WEB_CLIENT_SECRET };
const pub = { auth: false } as const;
const enc = encodeURIComponent;

export interface LoginBody {
  username: string;
  password: string;
  code?: string;
}

export interface SignupBody {
  name: string;
  email?: string;
  password: string;
  company?: string;
  promocode?: string;
  locale?: Locale;
  tariff_id?: number;
  recaptcha_token?: string;
}

export type ProviderSignupBody =
  | { provider: string; code: string; redirect_uri: string; locale: Locale; state?: string }
  /** Completing a no_email (email) or code_required (2FA code) answer with its pending access_token. */
  | { provider: string; access_token: string; email: string }
  | { provider: string; access_token: string; code: string };

/** GET /v1/auth/config: what the sign-in screens offer on this server. */
export interface AuthConfig {
  social_providers: ('vk' | 'facebook' | 'google' | 'yandex')[];
  recaptcha: { site_key: string; script_url: string } | null;
}

export interface DeletionRequestStatus {
  id: string;
  status: 'pending' | 'processing' | 'done' | 'cancelled';
  created_at: number;
  updated_at: number;
}

export const authApi = {
  config: (locale: Locale) => api.get<AuthConfig>(`/v1/auth/config?locale=${locale}`, pub),
  signupResend: (email: string, recaptcha_token?: string) =>
    api.post<MessageResponse>('/v1/signup/resend', { email, recaptcha_token }, pub),
  deletionRequest: (id: string) => api.get<DeletionRequestStatus>(`/v1/deleterequest/${enc(id)}`, pub),
  login: (body: LoginBody & { recaptcha_token?: string }) =>
    api.post<TokenResponse>(TOKEN_PATH, { grant_type: 'password', ...credentials, ...body }, pub),
  signup: (body: SignupBody) => api.post<SignupResponse>('/v1/signup', body, pub),
  getInvitation: (hash: string) => api.get<EmailWire>(`/v1/signup/${enc(hash)}`, pub),
  signupByInvitation: (hash: string, body: SignupBody) =>
    api.post<MessageWithToken>(`/v1/signup/${enc(hash)}`, body, pub),
  providerSignup: (body: ProviderSignupBody) =>
    api.post<TokenResponse | SignupResponse>(
      '/v1/signup/provider',
      'access_token' in body ? body : { ...credentials, ...body },
      pub,
    ),
  recovery: (email: string, recaptcha_token?: string) =>
    api.post<MessageResponse>('/v1/recovery', { email, recaptcha_token }, pub),
  checkResetHash: (hash: string) => api.post<EmailWire>('/v1/reset_password/check', { hash }, pub),
  /** With 2FA on, 400 code_required until `code` is sent too. */
  resetPassword: (body: { hash: string; password: string; password_confirm: string; code?: string }) =>
    api.post<TokenResponse>('/v1/reset_password', { ...body, ...credentials }, pub),
  confirmEmail: (hash: string) =>
    api.post<MessageWithToken>('/v1/confirm_email', { hash, ...credentials }, pub),
  objects: () => api.get<ObjectsResponse>('/v1/objects'),
};

export function isTokenResponse(value: unknown): value is TokenResponse {
  return (
    typeof value === 'object' && value !== null && typeof (value as TokenResponse).access_token === 'string'
  );
}
