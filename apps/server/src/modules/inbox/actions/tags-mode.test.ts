import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { buildChat, buildComment, buildObject, buildWorkspace } from '../../../../test/inbox-actions';
import { companies, tags } from '../../../db/schema';

// Issue 13 #16: a company's tags_mode. 'company': the company's accounts take only the company's own
// tags (on items and chats); 'space' (default): any tag of the space. Refusals are translated.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function scene(mode: 'space' | 'company') {
  const admin = await buildWorkspace(t);
  const db = t.deps.database.db;
  const [company] = await db
    .insert(companies)
    .values({ spaceId: admin.space.id, name: 'Филиал', settings: { tags_mode: mode } })
    .returning();
  const [own] = await db
    .insert(tags)
    .values({ spaceId: admin.space.id, companyId: company!.id, name: 'Свой' })
    .returning();
  const [shared] = await db.insert(tags).values({ spaceId: admin.space.id, name: 'Общий' }).returning();
  const account = await buildObject(t, admin.space.id, { companyId: company!.id });
  const put = (url: string, tag_ids: number[]) =>
    t.app.inject({ method: 'PUT', url, headers: admin.headers, payload: { tag_ids } });
  return { admin, company: company!, own: own!, shared: shared!, account, put };
}

describe("a company's tags_mode", () => {
  it("'company': only the company's tags go on its items and chats; the refusal is translated", async () => {
    const s = await scene('company');
    const item = await buildComment(t, s.account);
    expect((await s.put(`/v1/items/${item.id}/tags`, [s.own.id])).statusCode).toBe(200);
    const refused = await s.put(`/v1/items/${item.id}/tags`, [s.own.id, s.shared.id]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ tag_ids: 'Этот тег не относится к компании аккаунта' });
    const chat = await buildChat(t, s.account);
    expect((await s.put(`/v1/chats/${chat.id}/tags`, [s.shared.id])).statusCode).toBe(400);
    expect((await s.put(`/v1/chats/${chat.id}/tags`, [s.own.id])).statusCode).toBe(200);
  });

  it("'space' (and accounts of no company): any tag of the space", async () => {
    const s = await scene('space');
    const item = await buildComment(t, s.account);
    expect((await s.put(`/v1/items/${item.id}/tags`, [s.own.id, s.shared.id])).statusCode).toBe(200);
    const loose = await buildObject(t, s.admin.space.id);
    const other = await buildComment(t, loose);
    expect((await s.put(`/v1/items/${other.id}/tags`, [s.shared.id])).statusCode).toBe(200);
  });

  it('a tag put on before the switch to company mode can stay', async () => {
    const s = await scene('space');
    const item = await buildComment(t, s.account);
    expect((await s.put(`/v1/items/${item.id}/tags`, [s.shared.id])).statusCode).toBe(200);
    await t.deps.database.db
      .update(companies)
      .set({ settings: { tags_mode: 'company' } })
      .where(eq(companies.id, s.company.id));
    expect((await s.put(`/v1/items/${item.id}/tags`, [s.shared.id, s.own.id])).statusCode).toBe(200);
  });
});
