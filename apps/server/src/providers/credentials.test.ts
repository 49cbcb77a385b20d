import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { buildObject, buildWorkspace } from '../../test/inbox-actions';
import { objects } from '../db/schema';
import { Sealer } from '../lib/crypto';
import { markUnreadableCredentials, sealCredentials, UNREADABLE_CREDENTIALS_ERROR } from './context';

// A server started with another SECRET_KEY than the one accounts were connected under cannot open their
// credentials: it says so on each such account (errors dropdown, settings/errors) instead of failing
// later with the network's "unauthorised".

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.deps.database.db;

describe('credentials the current key cannot open', () => {
  it('become the account error of exactly those accounts, shown in the errors list', async () => {
    const admin = await buildWorkspace(t);
    const sealedWith = async (sealer: Sealer | null) => {
      const object = await buildObject(t, admin.space.id, { provider: 'telegram' });
      const credentials = sealer ? sealCredentials(sealer, { bot_token: '123:abc' }) : null;
      await db().update(objects).set({ credentials }).where(eq(objects.id, object.id));
      return object.id;
    };
    const stale = await sealedWith(new Sealer('the key this server had before'));
    const fine = await sealedWith(t.deps.sealer);
    const none = await sealedWith(null);

    const marked = await markUnreadableCredentials(db(), t.deps.sealer, t.deps.log);
    expect(marked).toContain(stale);
    expect(marked).not.toContain(fine);
    expect(marked).not.toContain(none);

    const errorOf = async (id: number) =>
      (await db().select({ error: objects.error }).from(objects).where(eq(objects.id, id)))[0]?.error;
    expect(await errorOf(stale)).toBe(UNREADABLE_CREDENTIALS_ERROR);
    expect(await errorOf(fine)).toBeNull();
    expect(await errorOf(none)).toBeNull();
    const listed = await t.app.inject({ url: '/v1/errors', headers: admin.headers });
    expect(listed.json().items.map((a: { id: number }) => a.id)).toEqual([stale]);
  });
});
