import type { Locale } from '@otklik/shared';
import type { Db } from '../../../db/client';
import { users } from '../../../db/schema';
import type { UserRow } from '../../../http/auth';
import { createSignupSpace } from '../../spaces/manage';
import { emailTaken, socialTaken } from './errors';
import { insertIdentity } from './identities';
import type { SocialProviderId } from './types';

/** User (no password), trial space named after them and identity, all or nothing. */
export async function createSocialUser(
  db: Db,
  input: {
    name: string;
    email: string;
    emailStatus: number;
    locale: Locale;
    provider: SocialProviderId;
    providerUserId: string;
    /** The address the provider gave, if any (in the no-email flow the user typed theirs). */
    identityEmail?: string;
    /** Config FIRST_SPACE_TARIFF_ID (spaces/manage.ts createSignupSpace). */
    instanceTariffId: number;
  },
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [user] = await t
      .insert(users)
      .values({ name: input.name, email: input.email, emailStatus: input.emailStatus, locale: input.locale })
      .onConflictDoNothing()
      .returning();
    if (!user) throw emailTaken();
    await createSignupSpace(
      t,
      { name: user.name, ownerId: user.id, locale: input.locale },
      input.instanceTariffId,
    );
    const linked = await insertIdentity(t, {
      userId: user.id,
      provider: input.provider,
      providerUserId: input.providerUserId,
      email: input.identityEmail,
    });
    if (!linked) throw socialTaken();
    return user;
  });
}

/** Networks may share no name (a bare Yandex login, a VK id): fall back to the mailbox name. */
export function displayName(name: string, email: string): string {
  return (name.trim() || email.split('@')[0] || email).slice(0, 255);
}
