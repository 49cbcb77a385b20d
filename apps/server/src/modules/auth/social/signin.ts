import type { Locale } from '@otklik/shared';
import type { UserRow } from '../../../http/auth';
import { badRequest } from '../../../lib/errors';
import { startWithDefaultStatus } from '../../statuses/service';
import { createOneTimeToken } from '../one-time';
import { findUserByEmail, getUser, normalizeEmail, sendConfirmation } from '../service';
import { issueTokens, type SessionMeta, type TokenResponse } from '../tokens';
import { createSocialUser, displayName } from './accounts';
import { emailTaken, socialTaken } from './errors';
import type { SocialDeps } from './flow';
import { findIdentity, insertIdentity } from './identities';
import { PENDING_EMAIL_TTL_S, PENDING_OTP_TTL_S, type PendingPayload } from './pending';
import type { ProviderProfile, SocialProvider, SocialProviderId } from './types';

/**
 * POST /v1/signup/provider, code flow, after the profile is read: the linked user, or the user whose
 * address the network vouches for, or a new user with a trial space.
 */
export async function signInWithProfile(
  deps: SocialDeps,
  provider: SocialProvider,
  profile: ProviderProfile,
  locale: Locale,
  meta: SessionMeta,
): Promise<TokenResponse> {
  const { db } = deps;
  const identity = await findIdentity(db, provider.id, profile.id);
  if (identity) return loginAs(deps, await getUser(db, identity.userId), provider.id, meta);

  if (!profile.email) {
    const payload: PendingPayload = {
      stage: 'email',
      provider: provider.id,
      provider_user_id: profile.id,
      name: profile.name,
      locale,
    };
    const pending = await createOneTimeToken(db, 'social_pending', {
      ttlSeconds: PENDING_EMAIL_TTL_S,
      payload,
    });
    throw badRequest('error.noEmail', { errorType: 'no_email', body: { access_token: pending } });
  }

  const email = normalizeEmail(profile.email);
  const existing = await findUserByEmail(db, email);
  if (existing) {
    // Only a proven address joins an account, and only an account whose owner proved it too: an
    // unconfirmed account could be someone's pre-registration of this address (account pre-hijacking).
    if (!profile.emailVerified || existing.emailStatus < 1) throw emailTaken();
    const linked = await insertIdentity(db, {
      userId: existing.id,
      provider: provider.id,
      providerUserId: profile.id,
      email,
    });
    if (!linked) {
      // Another request linked this identity meanwhile: fine if it was to this same user.
      const winner = await findIdentity(db, provider.id, profile.id);
      if (winner?.userId !== existing.id) throw socialTaken();
    }
    return loginAs(deps, existing, provider.id, meta);
  }

  const user = await createSocialUser(deps.db, {
    instanceTariffId: deps.config.FIRST_SPACE_TARIFF_ID,
    name: displayName(profile.name, email),
    email,
    emailStatus: profile.emailVerified ? 1 : 0,
    locale,
    provider: provider.id,
    providerUserId: profile.id,
    identityEmail: email,
  });
  if (!profile.emailVerified) await sendConfirmation(deps, user, email);
  return issueTokens(db, user.id, meta);
}

/** Tokens for a user, unless TOTP is on: then the second factor is asked for, as at password login. */
export async function loginAs(
  deps: SocialDeps,
  user: UserRow,
  provider: SocialProviderId,
  meta: SessionMeta,
): Promise<TokenResponse> {
  if (user.otpEnabled) {
    const payload: PendingPayload = { stage: 'otp', provider };
    const pending = await createOneTimeToken(deps.db, 'social_pending', {
      userId: user.id,
      ttlSeconds: PENDING_OTP_TTL_S,
      payload,
    });
    throw badRequest('error.codeRequired', { errorType: 'code_required', body: { access_token: pending } });
  }
  const tokens = await issueTokens(deps.db, user.id, meta);
  await startWithDefaultStatus(deps.db, deps.bus, user.id);
  return tokens;
}
