import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { chats, messages, objects } from '../../src/db/schema';
import { openCredentials } from '../../src/providers/context';
import { WhatsAppEmulator } from '../../src/providers/whatsapp/emulator';
import { createTestApp, type TestApp } from '../harness';
import { buildWorker, buildWorkspace } from '../inbox-actions';

// TEST-ONLY: an app listening on 127.0.0.1 wired to a WhatsApp emulator, and the steps the tests repeat.

export const PHONE_ID = '106540352242922';
export const APP_SECRET = 'meta-app-secret-1';

export class WhatsAppTestbed {
  t!: TestApp;
  emu!: WhatsAppEmulator;
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
    this.emu = await WhatsAppEmulator.start({
      phoneNumberId: PHONE_ID,
      accessToken: 'EAAG-initial',
      appSecret: APP_SECRET,
    });
    this.t = await createTestApp({ PROVIDER_UPDATES: 'webhook', WHATSAPP_GRAPH_URL: this.emu.url });
    await this.t.app.listen({ port: 0, host: '127.0.0.1' });
    this.base = `http://127.0.0.1:${(this.t.app.server.address() as AddressInfo).port}`;
    const admin = await buildWorkspace(this.t);
    this.headers = admin.headers;
    this.spaceId = admin.space.id;
  }

  async close() {
    await this.t.close();
    await this.emu.close();
  }

  /** A connected number with its own token; Meta's dashboard points at its webhook URL. */
  async connectNumber() {
    this.seq += 1;
    const token = `EAAG-${this.seq}-${Date.now()}`;
    this.emu.addToken(token);
    const res = await this.t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers: this.headers,
      payload: {
        provider: 'whatsapp',
        credentials: { phone_number_id: PHONE_ID, access_token: token, app_secret: APP_SECRET },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as number;
    const [row] = await this.db().select().from(objects).where(eq(objects.id, id));
    const verifyToken = openCredentials(this.t.deps.sealer, row!).webhook_secret!;
    const callback = `${this.base}/v1/webhooks/whatsapp/${id}`;
    expect((await this.emu.subscribe(callback, verifyToken)).verified).toBe(true);
    const customer = `1650555${String(this.seq).padStart(4, '0')}`;
    return { id, token, row: row!, verifyToken, callback, customer, setup: res.json().setup as unknown };
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
