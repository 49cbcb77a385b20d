import type { AuthDeps } from '../service';
import {
  accessDenied,
  invalidRedirectUri,
  invalidState,
  missingCode,
  providerFailed,
  providerUnavailable,
} from './errors';
import { ProviderError } from './http';
import { configuredProvider } from './providers';
import { createState, isAppRedirectUri, isValidState, type SocialMode } from './state';
import { isSocialProviderId, type ProviderClient, type ProviderProfile, type SocialProvider } from './types';

/** Where provider failures are recorded; pino's logger (deps.log, req.log) fits. */
export interface WarnLogger {
  warn(details: object, message: string): void;
}

export interface SocialDeps extends AuthDeps {
  log: WarnLogger;
}

export interface ConfiguredProvider {
  provider: SocialProvider;
  client: ProviderClient;
}

/** The provider named in the request, if it is one of ours and configured; else 400 providerUnavailable. */
export function requireProvider(deps: AuthDeps, id: string): ConfiguredProvider {
  const configured = isSocialProviderId(id) ? configuredProvider(deps.config, id) : undefined;
  if (!configured) throw providerUnavailable();
  return configured;
}

/** The provider's authorization page address, carrying a fresh state for this redirect_uri and mode. */
export function authorizationUrl(
  deps: AuthDeps,
  target: ConfiguredProvider,
  redirectUri: string,
  mode: SocialMode,
) {
  if (!isAppRedirectUri(deps.config, redirectUri)) throw invalidRedirectUri();
  const state = createState(deps.sealer, { provider: target.provider.id, redirectUri, mode });
  return target.provider.authorizeUrl(deps.config, target.client, { redirectUri, state });
}

export interface CallbackInput {
  /** The query of the provider's redirect back to us, forwarded by the web app. */
  code?: string;
  error?: string;
  state?: string;
  redirectUri?: string;
  mode: SocialMode;
}

/**
 * Turns the provider's redirect back to us into a profile: refuses denials, missing codes, foreign
 * redirect URIs and bad states before spending the code, then exchanges it.
 */
export async function profileFromCallback(
  deps: SocialDeps,
  target: ConfiguredProvider,
  input: CallbackInput,
): Promise<ProviderProfile> {
  const { provider, client } = target;
  if (input.error) {
    if (input.error === 'access_denied') throw accessDenied();
    deps.log.warn(
      { provider: provider.id, providerError: input.error.slice(0, 200) },
      'Social sign-in refused',
    );
    throw providerFailed(provider);
  }
  if (!input.code) throw missingCode();
  const redirectUri = input.redirectUri ?? '';
  if (!isAppRedirectUri(deps.config, redirectUri)) throw invalidRedirectUri();
  if (input.state !== undefined) {
    const claims = { provider: provider.id, redirectUri, mode: input.mode };
    if (!isValidState(deps.sealer, input.state, claims)) throw invalidState();
  }
  try {
    return await provider.fetchProfile(deps.config, client, { code: input.code, redirectUri });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // The provider's own words go to the log (they never hold our secret or the user's token).
    deps.log.warn(
      { provider: provider.id, status: error.status, providerError: error.detail },
      'Social sign-in failed',
    );
    throw providerFailed(provider);
  }
}
