import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type OneTimeTokenKind, oneTimeTokens } from '../../db/schema';
import { randomToken, sha256 } from '../../lib/crypto';

/** Creates a single-use link token; returns the raw hash for the link (only its digest is stored). */
export async function createOneTimeToken(
  db: Db,
  kind: OneTimeTokenKind,
  opts: { userId?: number; email?: string; ttlSeconds: number; payload?: Record<string, unknown> },
): Promise<string> {
  const hash = randomToken(24);
  await db.insert(oneTimeTokens).values({
    kind,
    digest: sha256(hash),
    userId: opts.userId,
    email: opts.email,
    payload: opts.payload,
    expiresAt: new Date(Date.now() + opts.ttlSeconds * 1000),
  });
  return hash;
}

/** The live (unused, unexpired) token of this kind, or undefined. */
export async function findOneTimeToken(db: Db, kind: OneTimeTokenKind, hash: string) {
  const [row] = await db
    .select()
    .from(oneTimeTokens)
    .where(
      and(
        eq(oneTimeTokens.digest, sha256(hash)),
        eq(oneTimeTokens.kind, kind),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row;
}

/** Marks a token used; false when someone else used it first (a double click, a replay). */
export async function spendOneTimeToken(db: Db, id: number): Promise<boolean> {
  const rows = await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeTokens.id, id), isNull(oneTimeTokens.usedAt)))
    .returning({ id: oneTimeTokens.id });
  return rows.length > 0;
}

/** Spends every live token of this kind of the user: a newer reset, a password change or 2FA switched on
 * leaves no older reset link working. */
export async function spendAllOneTimeTokens(db: Db, userId: number, kind: OneTimeTokenKind): Promise<void> {
  await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.kind, kind), isNull(oneTimeTokens.usedAt)));
}
