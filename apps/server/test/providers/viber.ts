import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { chats, messages, objects } from '../../src/db/schema';
import { ViberEmulator } from '../../src/providers/viber/emulator';
import { startCdn, type TestCdn } from '../cdn';
import { createTestApp, type TestApp } from '../harness';
import { buildWorker, buildWorkspace } from '../inbox-actions';

// TEST-ONLY: an app listening on 127.0.0.1 wired to a Viber emulator, and the steps the tests repeat.

export class ViberTestbed {
  t!: TestApp;
  emu!: ViberEmulator;
  /** The CDN customers' file links point at (dl-media.viber.com), reached through the media test hook. */
  cdn!: TestCdn;
  base = '';
  headers: Record<string, string> = {};
  spaceId = 0;
  /** The outbox worker's clock. */
  clock = Date.now();
  private seq = 0;

  db() {
    return this.t.deps.database.db;
  }

  async start() {
    this.emu = await ViberEmulator.start();
    this.cdn = await startCdn();
    this.t = await createTestApp(
      { PROVIDER_UPDATES: 'webhook', VIBER_API_URL: this.emu.url },
      { mediaNetwork: this.cdn.network },
    );
    await this.t.app.listen({ port: 0, host: '127.0.0.1' });
    this.base = `http://127.0.0.1:${(this.t.app.server.address() as AddressInfo).port}`;
    const appUrl = this.t.deps.config.appUrl;
    this.emu.rewrite = (url) => (url.startsWith(appUrl) ? this.base + url.slice(appUrl.length) : url);
    const admin = await buildWorkspace(this.t);
    this.headers = admin.headers;
    this.spaceId = admin.space.id;
  }

  async close() {
    await this.t.close();
    await this.emu.close();
    await this.cdn.close();
  }

  connect(authToken: string) {
    return this.t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers: this.headers,
      payload: { provider: 'viber', credentials: { auth_token: authToken } },
    });
  }

  /** A bot connected with its own token, and a user id that can write to it. */
  async connectBot() {
    this.seq += 1;
    const token = `4453b6ac12345678-${this.seq}-${Date.now()}`;
    this.emu.addBot(token);
    const res = await this.connect(token);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as number;
    const [row] = await this.db().select().from(objects).where(eq(objects.id, id));
    return { id, token, row: row!, user: `01234567890A${this.seq}=` };
  }

  async chatOf(objectId: number, externalId: string) {
    const found = await this.db()
      .select()
      .from(chats)
      .where(and(eq(chats.objectId, objectId), eq(chats.externalId, externalId)));
    return found[0];
  }

  messagesOf(chatId: number) {
    return this.db().select().from(messages).where(eq(messages.chatId, chatId)).orderBy(messages.id);
  }

  async messageRow(id: number) {
    return (await this.db().select().from(messages).where(eq(messages.id, id)))[0]!;
  }

  async writeFromInbox(chatId: number, text: string) {
    const res = await this.t.app.inject({
      method: 'POST',
      url: `/v1/chats/${chatId}/messages`,
      headers: this.headers,
      payload: { text },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().message.id as number;
  }

  /** Runs what is due: `advanceMs` moves the worker's clock (rate-limit waits), otherwise one second. */
  drain(advanceMs?: number) {
    this.clock = advanceMs === undefined ? Math.max(this.clock, Date.now()) + 1_000 : this.clock + advanceMs;
    return buildWorker(this.t, { spaceIds: [this.spaceId], now: () => new Date(this.clock) }).drain();
  }
}
