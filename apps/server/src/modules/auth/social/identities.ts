import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { userIdentities } from '../../../db/schema';
import { isSocialProviderId, type SocialProviderId } from './types';

export type IdentityRow = typeof userIdentities.$inferSelect;

export async function findIdentity(db: Db, provider: SocialProviderId, providerUserId: string) {
  const [row] = await db
    .select()
    .from(userIdentities)
    .where(and(eq(userIdentities.provider, provider), eq(userIdentities.providerUserId, providerUserId)))
    .limit(1);
  return row;
}

/** False when the (provider, provider user) pair is already someone's: the unique index decides races. */
export async function insertIdentity(
  db: Db,
  identity: { userId: number; provider: SocialProviderId; providerUserId: string; email?: string },
): Promise<boolean> {
  const rows = await db
    .insert(userIdentities)
    .values({ ...identity, email: identity.email ?? null })
    .onConflictDoNothing()
    .returning({ id: userIdentities.id });
  return rows.length > 0;
}

export async function findLinkedProviders(db: Db, userId: number): Promise<SocialProviderId[]> {
  const rows = await db
    .selectDistinct({ provider: userIdentities.provider })
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .orderBy(asc(userIdentities.provider));
  return rows.map((r) => r.provider).filter(isSocialProviderId);
}

export async function deleteIdentities(db: Db, userId: number, provider: SocialProviderId): Promise<void> {
  await db
    .delete(userIdentities)
    .where(and(eq(userIdentities.userId, userId), eq(userIdentities.provider, provider)));
}
