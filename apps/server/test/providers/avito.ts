import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { chats, messages, objects } from '../../src/db/schema';
import { AvitoEmulator } from '../../src/providers/avito/emulator';
import { openCredentials } from '../../src/providers/context';
import { createTestApp, type TestApp } from '../harness';
import { buildWorker, buildWorkspace } from '../inbox-actions';

// TEST-ONLY: an app listening on 127.0.0.1 wired to an Avito emulator, and the steps the tests repeat.

export class AvitoTestbed {
  t!: TestApp;
  emu!: AvitoEmulator;
  base = '';
  headers: Record<string, string> = {};
  spaceId = 0;
  /** The outbox worker's clock. */
  clock = Date.now();
  private seq = 0;

  constructor(private readonly env: Record<string, string> = {}) {}

  db() {
    return this.t.deps.database.db;
  }

  async start() {
    this.emu = await AvitoEmulator.start();
    this.t = await createTestApp({ PROVIDER_UPDATES: 'webhook', AVITO_API_URL: this.emu.url, ...this.env });
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
  }

  connect(credentials: Record<string, string>) {
    return this.t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers: this.headers,
      payload: { provider: 'avito', credentials },
    });
  }

  /** An Avito account with its own API keys, connected; `customer` can write to it in `chatId`. */
  async connectAccount() {
    this.seq += 1;
    const clientId = `client-${this.seq}-${Date.now()}`;
    const secret = `secret-${this.seq}`;
    const userId = 18_788_600 + this.seq;
    this.emu.network.addClient(clientId, secret, { userId, name: `Магазин ${this.seq}` });
    const res = await this.connect({ client_id: clientId, client_secret: secret });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as number;
    const [row] = await this.db().select().from(objects).where(eq(objects.id, id));
    const webhookSecret = openCredentials(this.t.deps.sealer, row!).webhook_secret!;
    return {
      id,
      clientId,
      secret,
      userId,
      row: row!,
      webhookSecret,
      chatId: `u2i-chat${this.seq}`,
      customer: { id: 94_235_300 + this.seq, name: 'Покупатель' },
    };
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
