import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type DeletionRequestStatus, deletionRequests, memberships, spaces, users } from '../../db/schema';
import { randomToken } from '../../lib/crypto';
import { conflict, notFound } from '../../lib/errors';

// Data deletion requests (issue 13 item 11): the user asks from the profile, the public page
// /deleterequest/{id} shows the request's real state, the instance operator processes it
// (`npm run admin -- process-deletion <id>`), and a pending request can be cancelled by its user.

export type DeletionRequestRow = typeof deletionRequests.$inferSelect;

/** What GET /v1/deleterequest/{id} shows: state and dates only, nothing about the person. */
export function presentDeletionRequest(row: DeletionRequestRow) {
  return {
    id: row.id,
    status: row.status,
    created_at: Math.floor(row.createdAt.getTime() / 1000),
    updated_at: Math.floor(row.updatedAt.getTime() / 1000),
  };
}

/** The spaces deleted with the user: those where they are the only member. */
export async function soleMemberSpaces(db: Db, userId: number): Promise<{ id: number; name: string }[]> {
  return db
    .select({ id: spaces.id, name: spaces.name })
    .from(spaces)
    .innerJoin(memberships, eq(memberships.spaceId, spaces.id))
    .where(
      and(
        eq(memberships.userId, userId),
        sql`(select count(*) from memberships m where m.space_id = ${spaces.id}) = 1`,
      ),
    )
    .orderBy(asc(spaces.id));
}

export async function listUserRequests(db: Db, userId: number): Promise<DeletionRequestRow[]> {
  return db
    .select()
    .from(deletionRequests)
    .where(eq(deletionRequests.userId, userId))
    .orderBy(desc(deletionRequests.createdAt));
}

/** A new pending request, or the user's open one (pending or processing): one at a time. */
export async function requestDeletion(db: Db, userId: number): Promise<DeletionRequestRow> {
  const [open] = await db
    .select()
    .from(deletionRequests)
    .where(
      and(eq(deletionRequests.userId, userId), inArray(deletionRequests.status, ['pending', 'processing'])),
    )
    .limit(1);
  if (open) return open;
  // 24 random bytes: the id is the only key to the public status page.
  const [row] = await db
    .insert(deletionRequests)
    .values({ id: randomToken(24), userId })
    .returning();
  return row!;
}

export async function findDeletionRequest(db: Db, id: string): Promise<DeletionRequestRow> {
  const [row] = await db.select().from(deletionRequests).where(eq(deletionRequests.id, id)).limit(1);
  if (!row) throw notFound('error.deletionRequestNotFound');
  return row;
}

/** Moves a request from one status to the next; 409 when it is no longer in `from`. */
async function moveStatus(
  db: Db,
  id: string,
  from: DeletionRequestStatus,
  to: DeletionRequestStatus,
  userId?: number,
): Promise<DeletionRequestRow> {
  const conditions = [eq(deletionRequests.id, id), eq(deletionRequests.status, from)];
  if (userId !== undefined) conditions.push(eq(deletionRequests.userId, userId));
  const [row] = await db
    .update(deletionRequests)
    .set({ status: to, updatedAt: new Date() })
    .where(and(...conditions))
    .returning();
  if (row) return row;
  const existing = await findDeletionRequest(db, id);
  if (userId !== undefined && existing.userId !== userId) throw notFound('error.deletionRequestNotFound');
  throw conflict('error.deletionRequestNotPending', { errorType: 'not_pending' });
}

/** The user takes back their pending request. */
export function cancelDeletion(db: Db, userId: number, id: string): Promise<DeletionRequestRow> {
  return moveStatus(db, id, 'pending', 'cancelled', userId);
}

/**
 * The operator carries out a pending (or interrupted) request: the spaces where the user is the only member go (with
 * everything in them, by the foreign keys' cascades), then the user (sessions, linked social logins,
 * settings cascade; their name on colleagues' records is set null). The request is then done.
 */
export async function processDeletion(
  db: Db,
  id: string,
): Promise<{ request: DeletionRequestRow; spaces: number }> {
  // 'processing' is visible on the status page while the deletion runs; a run that failed half-way
  // leaves it there, and running the command again finishes the job.
  const existing = await findDeletionRequest(db, id);
  const claimed =
    existing.status === 'processing' ? existing : await moveStatus(db, id, 'pending', 'processing');
  const userId = claimed.userId;
  let deletedSpaces = 0;
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    if (userId !== null) {
      const owned = await soleMemberSpaces(t, userId);
      if (owned.length > 0) {
        await t.delete(spaces).where(
          inArray(
            spaces.id,
            owned.map((s) => s.id),
          ),
        );
      }
      deletedSpaces = owned.length;
      await t.delete(users).where(eq(users.id, userId));
    }
    await t
      .update(deletionRequests)
      .set({ status: 'done', updatedAt: new Date() })
      .where(eq(deletionRequests.id, id));
  });
  return { request: await findDeletionRequest(db, id), spaces: deletedSpaces };
}

export async function listAllRequests(db: Db) {
  return db
    .select({ request: deletionRequests, email: users.email })
    .from(deletionRequests)
    .leftJoin(users, eq(users.id, deletionRequests.userId))
    .orderBy(asc(deletionRequests.createdAt));
}
