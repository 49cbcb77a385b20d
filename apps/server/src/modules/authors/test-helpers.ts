import { and, eq } from 'drizzle-orm';
import { bearer, buildUser, loginTokens } from '../../../test/auth-helpers';
import type { TestApp } from '../../../test/harness';
import { buildObject, commentEvent, messageEvent } from '../../../test/inbox-helpers';
import { authors, spaces, userGroups } from '../../db/schema';
import { ingest } from '../inbox/ingest/ingest';

// Test-only factories for the tags and authors tests (they belong in apps/server/test/ with the other
// factories; kept here because that folder has another owner).

/** A signed-in administrator with their own space on the unlimited tariff, labels enabled by default. */
export async function buildAdmin(t: TestApp, settings: Record<string, unknown> = { labels: true }) {
  const built = await buildUser(t);
  await t.deps.database.db
    .update(spaces)
    .set({ tariffId: 20, settings })
    .where(eq(spaces.id, built.space.id));
  const tokens = await loginTokens(t, built.email);
  return { ...built, headers: bearer(tokens.access_token) };
}

/** A signed-in user whose only space is `spaceId`, with a named role or explicit flags, maybe in a group. */
export { buildMember } from '../users/testing';

/** A user group of `spaceId` limited to the given accounts. */
export async function buildUserGroup(t: TestApp, spaceId: number, objectIds: number[]) {
  const [row] = await t.deps.database.db
    .insert(userGroups)
    .values({ spaceId, name: 'Group', objectIds })
    .returning();
  return row!;
}

export type ObjectRow = Awaited<ReturnType<typeof buildObject>>;

/**
 * A customer who wrote `comments` comments and `messages` messages (in one chat) on `object`, through the
 * real ingestion pipeline. Returns the created item and message ids.
 */
export async function writeAsCustomer(
  t: TestApp,
  object: ObjectRow,
  customer: { externalId: string; name: string; screenName?: string },
  counts: { comments?: number; messages?: number; at?: Date } = {},
) {
  const at = counts.at ?? new Date();
  const events: unknown[] = [];
  for (let i = 0; i < (counts.comments ?? 0); i++) {
    events.push(commentEvent({ author: customer, createdAt: new Date(at.getTime() + i * 1000) }));
  }
  for (let i = 0; i < (counts.messages ?? 0); i++) {
    events.push(
      messageEvent({
        chatExternalId: `chat-${customer.externalId}`,
        author: customer,
        createdAt: new Date(at.getTime() + i * 1000),
      }),
    );
  }
  return ingest({ db: t.deps.database.db, bus: t.deps.bus }, object, events);
}

export { buildObject };

/** The id of the author `externalId` of `object`'s network in its space. */
export async function authorIdOf(t: TestApp, object: ObjectRow, externalId: string): Promise<number> {
  const [row] = await t.deps.database.db
    .select({ id: authors.id })
    .from(authors)
    .where(
      and(
        eq(authors.spaceId, object.spaceId),
        eq(authors.provider, object.provider),
        eq(authors.externalId, externalId),
      ),
    );
  if (!row) throw new Error(`no author ${externalId}`);
  return row.id;
}
