import { createServer } from 'node:net';
import type { ProviderId } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { chats, items, messages, objects } from '../../src/db/schema';
import { PollingManager } from '../../src/jobs/pollers';
import { openCredentials } from '../../src/providers/context';
import { startCdn, type TestCdn } from '../cdn';
import { createTestApp, type TestApp } from '../harness';
import { buildWorker, buildWorkspace } from '../inbox-actions';

// TEST-ONLY: the one provider test harness (issue 12 §5). Every connector's tests run the same world:
// the network's emulator, our app built with the network's base URL pointed at it (and, for networks
// that call our webhooks, listening on 127.0.0.1 with APP_URL at that address), a space with its
// administrator, the outbox worker on a clock the test moves, and the reads the tests repeat. A network's
// kit (avito.ts, telegram.ts, ...) adds only what is its own: the emulator and how an account is made.

/** A port nobody listens on right now, for an app that must know its own address before it starts. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `probe` until it gives a value (bounded: `timeoutMs`), for what an emulator does on its own. */
export async function until<T>(
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The wait a polling manager asks for between rounds, held until the test says `tick` (no sleeps): each
 * wait asked for is recorded in `waits`.
 */
export class Ticker {
  readonly waits: number[] = [];
  private held: Array<() => void> = [];
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  wait = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      this.waits.push(ms);
      this.held.push(resolve);
      signal.addEventListener('abort', () => resolve(), { once: true });
      for (const w of this.waiters.filter((x) => this.waits.length >= x.count)) w.resolve();
      this.waiters = this.waiters.filter((x) => this.waits.length < x.count);
    });

  /** Resolves once `count` waits in all have been asked for (a round finished and the loop waits). */
  untilWaits(count: number) {
    if (this.waits.length >= count) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Lets every waiting loop go on, and resolves when each has asked for its next wait. */
  async tick() {
    const expected = this.waits.length + this.held.length;
    const held = this.held.splice(0);
    for (const release of held) release();
    await this.untilWaits(expected);
  }
}

export interface TestbedOptions {
  provider: ProviderId;
  /**
   * The app's environment, read at start (after the emulator is up): the network's base URL pointed at
   * the emulator (`AVITO_API_URL: emu.url`), PROVIDER_UPDATES, app keys. APP_URL is set by `listen`.
   */
  env: () => Record<string, string>;
  /** Listen on 127.0.0.1 with APP_URL at that address: the emulator calls our webhooks. */
  listen?: boolean;
  /** A CDN for customers' file links, reached through the media test hook (`bed.cdn`). */
  cdn?: boolean;
  /** Make no space at start (the tests make their own workspaces). */
  noSpace?: boolean;
}

export class ProviderTestbed {
  t!: TestApp;
  /** Where the app listens (with `listen`), which is also its APP_URL. */
  base = '';
  headers: Record<string, string> = {};
  spaceId = 0;
  /** The outbox worker's clock. */
  clock = Date.now();
  cdn!: TestCdn;
  private closers: Array<() => Promise<unknown> | unknown> = [];

  constructor(readonly options: TestbedOptions) {}

  get provider() {
    return this.options.provider;
  }

  db() {
    return this.t.deps.database.db;
  }

  /** Builds the app (after the emulator is up: `env` reads its URL) and a first space. */
  async start() {
    if (this.options.cdn) this.cdn = await startCdn();
    const port = this.options.listen ? await freePort() : 0;
    const env = this.options.listen ? { APP_URL: `http://127.0.0.1:${port}` } : {};
    this.t = await createTestApp(
      { ...env, ...this.options.env() },
      this.options.cdn ? { mediaNetwork: this.cdn.network } : {},
    );
    if (this.options.listen) {
      await this.t.app.listen({ port, host: '127.0.0.1' });
      this.base = `http://127.0.0.1:${port}`;
    }
    if (!this.options.noSpace) await this.newSpace();
    return this;
  }

  /** A fresh space and its administrator (a polling manager then sees only its accounts). */
  async newSpace() {
    const admin = await buildWorkspace(this.t);
    this.headers = admin.headers;
    this.spaceId = admin.space.id;
  }

  /** Runs `close` when the testbed closes, after the app (the emulator, typically). */
  onClose(close: () => Promise<unknown> | unknown) {
    this.closers.push(close);
  }

  async close() {
    await this.t.close();
    for (const close of this.closers) await close();
    if (this.options.cdn) await this.cdn.close();
  }

  /** A request to the app as the space's administrator. */
  inject(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) {
    return this.t.app.inject({ method, url, headers: this.headers, payload });
  }

  /** A request as the space's administrator that must answer `status` (200 by default): its JSON. */
  async api(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    status = 200,
  ) {
    const res = await this.inject(method, url, payload);
    expect(res.statusCode, res.body).toBe(status);
    return res.json();
  }

  /** POST /v1/objects for this network with what the add-account screen sends. */
  connect(credentials: Record<string, string>) {
    return this.inject('POST', '/v1/objects', { provider: this.provider, credentials });
  }

  /** Connects (200 expected) and gives the account, its row and its opened credentials. */
  async connected(credentials: Record<string, string>) {
    const res = await this.connect(credentials);
    if (res.statusCode !== 200) throw new Error(`connect failed: ${res.statusCode} ${res.body}`);
    const account = res.json() as { id: number; name: string; setup?: unknown };
    const [row] = await this.db().select().from(objects).where(eq(objects.id, account.id));
    return { account, row: row!, credentials: openCredentials(this.t.deps.sealer, row!) };
  }

  /** Where the network's OAuth page sends the popup back to. */
  redirectUri() {
    return `${this.t.deps.config.appUrl}/callback/${this.provider}`;
  }

  /**
   * What the OAuth popup does: open the network's page (the emulator's) and come back with what it put
   * in the address. `inspect` sees the page's URL first (scopes asked for).
   */
  async popup(inspect?: (url: URL) => void) {
    const start = await this.inject(
      'GET',
      `/v1/${this.provider}/auth/start?redirect_uri=${encodeURIComponent(this.redirectUri())}`,
    );
    expect(start.statusCode, start.body).toBe(200);
    inspect?.(new URL(start.json().url as string));
    const answer = await fetch(start.json().url as string, { redirect: 'manual' });
    return Object.fromEntries(new URL(answer.headers.get('location')!).searchParams);
  }

  /** The popup's answer handed to the app: POST /v1/{provider}/auth. */
  finish(back: Record<string, string>) {
    return this.inject('POST', `/v1/${this.provider}/auth`, { ...back, redirect_uri: this.redirectUri() });
  }

  async row(id: number) {
    return (await this.db().select().from(objects).where(eq(objects.id, id)))[0]!;
  }

  itemsOf(objectId: number) {
    return this.db().select().from(items).where(eq(items.objectId, objectId)).orderBy(items.id);
  }

  /** Every item of the account with this external id (one, where nothing is stored twice). */
  async copiesOf(objectId: number, externalId: string) {
    return (await this.itemsOf(objectId)).filter((i) => i.externalId === externalId);
  }

  async item(objectId: number, externalId: string) {
    const [row] = await this.db()
      .select()
      .from(items)
      .where(and(eq(items.objectId, objectId), eq(items.externalId, externalId)));
    return row;
  }

  /** A polling manager for the current space whose waits `ticker` holds. */
  poller(ticker: Ticker, node = `${this.provider}-${process.pid}-${Math.random()}`, now?: () => Date) {
    const { bus, sealer, config, log } = this.t.deps;
    return new PollingManager({ db: this.db(), bus, sealer, config, log }, node, {
      spaceIds: [this.spaceId],
      wait: ticker.wait,
      random: () => 0.5,
      now,
    });
  }

  /**
   * Runs `steps` while a polling manager of the current space polls (started by a scan, its waits held
   * by a ticker of its own), and stops the manager after them, whatever happens.
   */
  async whilePolling<T>(
    steps: (ticker: Ticker, manager: PollingManager) => Promise<T>,
    node?: string,
  ): Promise<T> {
    const ticker = new Ticker();
    const manager = this.poller(ticker, node);
    try {
      await manager.scan();
      return await steps(ticker, manager);
    } finally {
      await manager.stop();
    }
  }

  /** One polling round (a manager of its own, stopped after its first wait): the account's row then. */
  async pollRound(objectId: number) {
    await this.whilePolling((ticker) => ticker.untilWaits(1));
    return this.row(objectId);
  }

  /**
   * Polls until every account's loop has ended (stopped, or paused by a refusal such as a revoked
   * grant): the account's row then.
   */
  pollUntilIdle(objectId: number) {
    return this.whilePolling(async (_ticker, manager) => {
      await manager.idle();
      return this.row(objectId);
    });
  }

  /** The account's entry in GET /v1/errors (the accounts the errors screen lists), if it is there. */
  async listedError(objectId: number) {
    const res = await this.inject('GET', '/v1/errors');
    expect(res.statusCode, res.body).toBe(200);
    const listed = res.json().items as Array<{ id: number; error: string }>;
    return listed.find((e) => e.id === objectId);
  }

  /**
   * Our reply under an item while the network answers its first call with a 429 (the test arranges
   * that): queued, not sent by the first run, run again `retryMs` later. The reply's row then.
   */
  async replyThrough429(itemId: number, text: string, retryMs: number) {
    const replied = await this.inject('POST', `/v1/items/${itemId}/reply`, { text });
    expect(replied.statusCode, replied.body).toBe(200);
    const replyId = replied.json().reply.id as number;
    const reply = async () => (await this.db().select().from(items).where(eq(items.id, replyId)))[0]!;
    await this.drain();
    expect((await reply()).delivery).not.toBe('sent');
    await this.drain(retryMs);
    return reply();
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

  /** The chat a message is in. */
  async chatOfMessage(messageId: number) {
    const { chatId } = await this.messageRow(messageId);
    return (await this.db().select().from(chats).where(eq(chats.id, chatId)))[0]!;
  }

  async writeFromInbox(chatId: number, text: string) {
    const res = await this.inject('POST', `/v1/chats/${chatId}/messages`, { text });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().message.id as number;
  }

  /** Runs what is due: `advanceMs` moves the worker's clock (rate-limit waits), otherwise one second. */
  drain(advanceMs?: number) {
    this.clock = advanceMs === undefined ? Math.max(this.clock, Date.now()) + 1_000 : this.clock + advanceMs;
    return buildWorker(this.t, { spaceIds: [this.spaceId], now: () => new Date(this.clock) }).drain();
  }
}

/** The testbed started and closed by the test file's hooks. */
export function hooked<T extends ProviderTestbed>(bed: T): T {
  beforeAll(async () => {
    await bed.start();
  });
  afterAll(() => bed.close());
  return bed;
}

/**
 * A network's testbed and its emulator, started and closed by the test file's hooks: the emulator first
 * (`start` may register the app's client with it; `env` reads it), closed after the app. With `eachSpace`
 * every test gets a fresh space, so its polling manager sees only its own accounts.
 */
export function emulatedTestbed<E extends { close(): Promise<unknown> }>(
  start: () => Promise<E>,
  options: Omit<TestbedOptions, 'env' | 'noSpace'> & {
    env: (emu: E) => Record<string, string>;
    eachSpace?: boolean;
  },
) {
  let emu: E;
  const { env, eachSpace, ...rest } = options;
  const bed = new ProviderTestbed({ ...rest, noSpace: eachSpace, env: () => env(emu) });
  beforeAll(async () => {
    emu = await start();
    bed.onClose(() => emu.close());
    await bed.start();
  });
  afterAll(() => bed.close());
  if (eachSpace) beforeEach(() => bed.newSpace());
  return bed;
}

/** An outbox worker for one space with a clock the test moves (`run(ms)`: ahead by `ms`, then drain). */
export function workerOf(world: { t: TestApp; spaceId: number }) {
  const clock = { ms: Date.now() };
  const worker = buildWorker(world.t, { spaceIds: [world.spaceId], now: () => new Date(clock.ms) });
  return {
    clock,
    async run(ms = 1_000) {
      clock.ms = Math.max(clock.ms, Date.now()) + ms;
      return worker.drain();
    },
  };
}
