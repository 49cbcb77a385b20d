import type { Db } from '../../../db/client';
import type { UserRow } from '../../../http/auth';
import { lastSignInMethod, socialTaken } from './errors';
import { deleteIdentities, findIdentity, findLinkedProviders, insertIdentity } from './identities';
import type { ProviderProfile, SocialProviderId } from './types';

/**
 * POST /v1/me/social: links the network account to the signed-in user, replacing their previous
 * account at that network (one per network keeps "unlink VK" unambiguous). 409 if it is someone else's.
 */
export async function linkProvider(
  db: Db,
  user: UserRow,
  provider: SocialProviderId,
  profile: ProviderProfile,
): Promise<SocialProviderId[]> {
  const identity = await findIdentity(db, provider, profile.id);
  if (identity && identity.userId !== user.id) throw socialTaken();
  if (!identity) {
    await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      await deleteIdentities(t, user.id, provider);
      const linked = await insertIdentity(t, {
        userId: user.id,
        provider,
        providerUserId: profile.id,
        email: profile.email,
      });
      if (!linked) throw socialTaken();
    });
  }
  return findLinkedProviders(db, user.id);
}

/**
 * DELETE /v1/me/social/{provider}. Refused (409) when it is the last way to sign in: no password and
 * no other linked network (issue 13 item 4).
 */
export async function unlinkProvider(
  db: Db,
  user: UserRow,
  provider: SocialProviderId,
): Promise<SocialProviderId[]> {
  const linked = await findLinkedProviders(db, user.id);
  if (!user.passwordHash && linked.includes(provider) && linked.length === 1) throw lastSignInMethod();
  await deleteIdentities(db, user.id, provider);
  return findLinkedProviders(db, user.id);
}
