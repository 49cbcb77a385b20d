import type { MessageKey } from '@otklik/shared';

// The server's start redirect says why it could not send the browser on (`?social_error=<error_type>`):
// shown translated on the screen it came back to (login or profile), never as a JSON page.
const KEYS: Record<string, MessageKey> = {
  provider_unavailable: 'error.providerUnavailable',
  invalid_redirect_uri: 'error.invalidRedirectUri',
  invalid_state: 'error.invalidState',
  access_denied: 'error.accessDenied',
  missing_code: 'error.missingCode',
};

/** The message key for a social_error value, or undefined for none. */
export function socialErrorKey(errorType: string | null): MessageKey | 'account.socialError' | undefined {
  if (!errorType) return undefined;
  return KEYS[errorType] ?? 'account.socialError';
}

/** What ProviderCallbackScreen hands to /login when a sign-in failed: the translated reason. */
export interface LoginLocationState {
  socialError?: string;
}
