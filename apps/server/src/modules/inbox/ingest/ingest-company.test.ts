import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { buildObject, commentEvent, messageEvent } from '../../../../test/inbox-helpers';
import { chats, companies, items, memberships } from '../../../db/schema';
import { buildMember } from '../../users/testing';
import { ingest } from './ingest';

// The company settings of an account act on new work (docs/product/entities.md, organisation/schemas.ts): who it is
// assigned to, and whether new chats start open.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.deps.database.db;
const deps = () => ({ db: db(), bus: t.deps.bus });

async function companyAccount(settings: Record<string, unknown>) {
  const { space } = await buildUser(t);
  const member = await buildMember(t, space.id, 'operator', { name: 'Duty operator' });
  const [company] = await db()
    .insert(companies)
    .values({
      spaceId: space.id,
      name: 'Coffee shops',
      settings: { ...settings, items_assigned_to: settings.items_assigned_to ?? member.user.id },
    })
    .returning();
  const object = await buildObject(t, space.id, { companyId: company!.id });
  return { space, member, company: company!, object };
}

describe("ingest — the account's company", () => {
  it('assigns new comments and chats to the chosen member; chats start open when the company says so', async () => {
    const { member, object } = await companyAccount({ status_open: true });
    const comment = await ingest(deps(), object, [commentEvent()]);
    const [item] = await db().select().from(items).where(eq(items.id, comment.itemIds[0]!));
    expect(item).toMatchObject({ status: 'new', assignedUserId: member.user.id });

    await ingest(deps(), object, [messageEvent({ chatExternalId: 'peer-c1', externalId: 'm-c1' })]);
    const [chat] = await db()
      .select()
      .from(chats)
      .where(and(eq(chats.objectId, object.id), eq(chats.externalId, 'peer-c1')));
    expect(chat).toMatchObject({ status: 'open', assignedUserId: member.user.id });

    // Closed, then the customer writes again: back in the company's starting status.
    await db().update(chats).set({ status: 'closed', closeReason: 'reply' }).where(eq(chats.id, chat!.id));
    await ingest(deps(), object, [messageEvent({ chatExternalId: 'peer-c1', externalId: 'm-c2' })]);
    const [again] = await db().select().from(chats).where(eq(chats.id, chat!.id));
    expect(again).toMatchObject({ status: 'open', closeReason: null });
  });

  it('assigns nobody once the chosen member has left the space, and starts chats new by default', async () => {
    const { space, member, object } = await companyAccount({});
    await db()
      .delete(memberships)
      .where(and(eq(memberships.spaceId, space.id), eq(memberships.userId, member.user.id)));
    const comment = await ingest(deps(), object, [commentEvent()]);
    const [item] = await db().select().from(items).where(eq(items.id, comment.itemIds[0]!));
    expect(item).toMatchObject({ status: 'new', assignedUserId: null });
    await ingest(deps(), object, [messageEvent({ chatExternalId: 'peer-c2', externalId: 'm-c3' })]);
    const [chat] = await db()
      .select()
      .from(chats)
      .where(and(eq(chats.objectId, object.id), eq(chats.externalId, 'peer-c2')));
    expect(chat).toMatchObject({ status: 'new', assignedUserId: null });
  });

  it('leaves accounts without a company as they were: new and unassigned', async () => {
    const { space } = await buildUser(t);
    const object = await buildObject(t, space.id);
    const comment = await ingest(deps(), object, [commentEvent()]);
    const [item] = await db().select().from(items).where(eq(items.id, comment.itemIds[0]!));
    expect(item).toMatchObject({ status: 'new', assignedUserId: null });
  });
});
