import type { Locale } from '@otklik/shared';
import type { UserRow } from '../../../http/auth';
import type { SessionMeta, TokenResponse } from '../tokens';
import { type CallbackInput, type ConfiguredProvider, profileFromCallback, type SocialDeps } from './flow';
import { linkProvider } from './link';
import { signInWithProfile } from './signin';
import type { SocialProviderId } from './types';

/** POST /v1/signup/provider, code flow: the provider's redirect → our tokens (or no_email / code_required). */
export async function signInWithCode(
  deps: SocialDeps,
  target: ConfiguredProvider,
  callback: Omit<CallbackInput, 'mode'>,
  locale: Locale,
  meta: SessionMeta,
): Promise<TokenResponse> {
  const profile = await profileFromCallback(deps, target, { ...callback, mode: 'login' });
  return signInWithProfile(deps, target.provider, profile, locale, meta);
}

/** POST /v1/me/social: the provider's redirect → the network account linked to `user`. */
export async function linkWithCode(
  deps: SocialDeps,
  user: UserRow,
  target: ConfiguredProvider,
  callback: Omit<CallbackInput, 'mode'> & { state: string },
): Promise<SocialProviderId[]> {
  const profile = await profileFromCallback(deps, target, { ...callback, mode: 'link' });
  return linkProvider(deps.db, user, target.provider.id, profile);
}
