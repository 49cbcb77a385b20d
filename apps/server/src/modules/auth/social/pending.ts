import { z } from 'zod';
import { badRequest } from '../../../lib/errors';
import { findOneTimeToken, spendOneTimeToken } from '../one-time';
import { requireSecondFactor } from '../second-factor';
import { findUserByEmail, getUser, normalizeEmail, sendConfirmation } from '../service';
import { issueTokens, type SessionMeta, type TokenResponse } from '../tokens';
import { createSocialUser, displayName } from './accounts';
import { emailTaken, invalidPendingToken, socialTaken } from './errors';
import type { SocialDeps } from './flow';
import { findIdentity } from './identities';
import { SOCIAL_PROVIDER_IDS, type SocialProviderId } from './types';

// A social sign-in that needs one more answer from the user is parked in a 'social_pending' one-time
// token, handed to the client as `access_token` with the 400 that asks the question.

/** docs/product/api.md no_email: time to type an address. */
export const PENDING_EMAIL_TTL_S = 30 * 60;
/** code_required: time to open the authenticator app. */
export const PENDING_OTP_TTL_S = 10 * 60;

const pendingSchema = z.discriminatedUnion('stage', [
  z.object({
    stage: z.literal('email'),
    provider: z.enum(SOCIAL_PROVIDER_IDS),
    provider_user_id: z.string().min(1),
    name: z.string(),
    locale: z.enum(['ru', 'en']),
  }),
  z.object({ stage: z.literal('otp'), provider: z.enum(SOCIAL_PROVIDER_IDS) }),
]);
export type PendingPayload = z.infer<typeof pendingSchema>;

/** POST /v1/signup/provider {provider, access_token, email | code}: finishes a parked sign-in. */
export async function completePendingSignIn(
  deps: SocialDeps,
  input: { provider: SocialProviderId; pendingToken: string; email?: string; code?: string },
  meta: SessionMeta,
): Promise<TokenResponse> {
  const token = await findOneTimeToken(deps.db, 'social_pending', input.pendingToken);
  const payload = pendingSchema.safeParse(token?.payload);
  if (!token || !payload.success || payload.data.provider !== input.provider) throw invalidPendingToken();
  const spend = async () => {
    if (!(await spendOneTimeToken(deps.db, token.id))) throw invalidPendingToken();
  };

  if (payload.data.stage === 'otp') {
    if (!token.userId) throw invalidPendingToken();
    const user = await getUser(deps.db, token.userId);
    // Rate-limited per user: the pending token would otherwise allow guessing six digits for ten minutes.
    await requireSecondFactor(deps, user, input.code);
    await spend();
    return issueTokens(deps.db, user.id, meta);
  }

  const pending = payload.data;
  if (!input.email)
    throw badRequest('email.required', { errorType: 'validation', fields: { email: 'email.required' } });
  const email = normalizeEmail(input.email);
  // The address is only typed in, not proven: it must never open an existing account. The token
  // stays unspent so the user can enter another address.
  if (await findUserByEmail(deps.db, email)) throw emailTaken();
  if (await findIdentity(deps.db, pending.provider, pending.provider_user_id)) throw socialTaken();
  await spend();
  const user = await createSocialUser(deps.db, {
    instanceTariffId: deps.config.FIRST_SPACE_TARIFF_ID,
    name: displayName(pending.name, email),
    email,
    emailStatus: 0,
    locale: pending.locale,
    provider: pending.provider,
    providerUserId: pending.provider_user_id,
  });
  await sendConfirmation(deps, user, email);
  return issueTokens(deps.db, user.id, meta);
}
