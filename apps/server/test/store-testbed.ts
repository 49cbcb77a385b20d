import type { ProviderId } from '@otklik/shared';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { items, objects, outbox } from '../src/db/schema';
import { PollingManager } from '../src/jobs/pollers';
import { createTestApp, type TestApp } from './harness';
import { buildWorker, buildWorkspace } from './inbox-actions';

// TEST-ONLY: an app wired to an app store's emulator (Google Play, RuStore), the polling manager with a
// wait the test releases by hand (so interval polling and Retry-After waits take no real time), and the
// steps the store tests repeat: connect, read an account's items, reply, drain the outbox.

export class StoreTestbed {
  t!: TestApp;
  headers: Record<string, string> = {};
  spaceId = 0;
  /** The outbox worker's clock. */
  clock = Date.now();
  /** The waits the polling manager asked for (ms), in order. */
  readonly waits: number[] = [];
  private releases: Array<() => void> = [];
  private manager: PollingManager | undefined;

  constructor(
    private readonly provider: ProviderId,
    private readonly env: () => Record<string, string>,
  ) {}

  db() {
    return this.t.deps.database.db;
  }

  async start() {
    this.t = await createTestApp({ PROVIDER_UPDATES: 'auto', ...this.env() });
    await this.newSpace();
  }

  /** A fresh space (and its administrator): the polling manager then sees only its accounts. */
  async newSpace() {
    const admin = await buildWorkspace(this.t);
    this.headers = admin.headers;
    this.spaceId = admin.space.id;
    this.waits.length = 0;
  }

  async close() {
    await this.stopPolling();
    await this.t.close();
  }

  connect(credentials: Record<string, string>) {
    return this.t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers: this.headers,
      payload: { provider: this.provider, credentials },
    });
  }

  async connectOk(credentials: Record<string, string>) {
    const res = await this.connect(credentials);
    expect(res.statusCode, res.body).toBe(200);
    return this.account(res.json().id as number);
  }

  /** A fresh space with only this account in it (its polling manager polls nothing else): its row. */
  async connectAlone(credentials: Record<string, string>) {
    await this.newSpace();
    return this.connectOk(credentials);
  }

  /**
   * Each connect is refused (400) with an error matching its pattern, and none stores an account in the
   * space.
   */
  async expectRefused(cases: Array<[credentials: Record<string, string>, error: RegExp]>) {
    const accounts = () => this.db().select().from(objects).where(eq(objects.spaceId, this.spaceId));
    const before = await accounts();
    for (const [credentials, error] of cases) {
      const res = await this.connect(credentials);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatch(error);
    }
    expect(await accounts()).toHaveLength(before.length);
  }

  async account(id: number) {
    const [row] = await this.db().select().from(objects).where(eq(objects.id, id));
    return row!;
  }

  itemsOf(objectId: number) {
    return this.db().select().from(items).where(eq(items.objectId, objectId)).orderBy(asc(items.id));
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

  async reply(itemId: number, text: string) {
    return this.t.app.inject({
      method: 'POST',
      url: `/v1/items/${itemId}/reply`,
      headers: this.headers,
      payload: { text },
    });
  }

  /** Runs what is due: `advanceMs` moves the worker's clock (rate-limit waits), otherwise one second. */
  drain(advanceMs?: number) {
    this.clock = advanceMs === undefined ? Math.max(this.clock, Date.now()) + 1_000 : this.clock + advanceMs;
    return buildWorker(this.t, { spaceIds: [this.spaceId], now: () => new Date(this.clock) }).drain();
  }

  /** The polling manager of this space; each of its waits blocks until `release()`. */
  async startPolling(nodeId = `store-${Date.now()}`) {
    this.manager = new PollingManager({ ...this.t.deps, db: this.db() }, nodeId, {
      spaceIds: [this.spaceId],
      wait: (ms, signal) =>
        new Promise<void>((resolve) => {
          this.waits.push(ms);
          this.releases.push(resolve);
          signal.addEventListener('abort', () => resolve(), { once: true });
        }),
    });
    await this.manager.scan();
    return this.manager;
  }

  /**
   * Starts polling as node `nodeId`; the first round then waits the network's interval of `seconds` with
   * its ±10 % jitter.
   */
  async expectPollInterval(nodeId: string, seconds: number) {
    await this.startPolling(nodeId);
    await this.untilWaits(1);
    expect(this.waits[0]).toBeGreaterThanOrEqual(seconds * 900);
    expect(this.waits[0]).toBeLessThanOrEqual(seconds * 1100);
  }

  /**
   * Lets the store answer the next round with a 429 (`rateLimitNext(seconds)`: Retry-After), checks the
   * polling manager then waits exactly that long, and lets the round after it run.
   */
  async roundThrough429(seconds: number, rateLimitNext: (seconds: number) => void) {
    const waited = this.waits.length;
    rateLimitNext(seconds);
    this.release();
    await this.untilWaits(waited + 1);
    expect(this.waits[waited]).toBe(seconds * 1000);
    this.release();
  }

  /** Waits until the account's stored cursor is `cursor` (a round writes it after storing its items). */
  untilCursor(objectId: number, cursor: number) {
    return until(async () => Number((await this.account(objectId)).pollCursor) === cursor);
  }

  /** A restart: polling stops, and node `nodeId` takes over from the stored cursor for one round. */
  async restartPolling(nodeId: string) {
    await this.stopPolling();
    await this.startPolling(nodeId);
    await this.untilWaits(this.waits.length + 1);
  }

  async stopPolling() {
    const manager = this.manager;
    this.manager = undefined;
    if (!manager) return;
    const stopping = manager.stop();
    this.release();
    await stopping;
  }

  /** Lets the polling loop past the wait it is in. */
  release() {
    const pending = this.releases;
    this.releases = [];
    for (const resolve of pending) resolve();
  }

  /**
   * Polls the account (as node `nodeId`) until it carries an error, which must contain `message` and be
   * listed by /v1/errors: a revoked credential becomes the account's error.
   */
  async expectAccountError(objectId: number, nodeId: string, message: string) {
    await this.startPolling(nodeId);
    const broken = await until(async () => {
      const account = await this.account(objectId);
      return account.error ? account : null;
    });
    await this.stopPolling();
    expect(broken.error).toContain(message);
    const errors = await this.t.app.inject({ url: '/v1/errors', headers: this.headers });
    expect(errors.json().items).toContainEqual(expect.objectContaining({ id: objectId }));
  }

  /**
   * Replies, lets the store answer the first call with a 429 (`rateLimitNext(seconds)`: Retry-After),
   * checks the outbox row waits exactly that long, then (after `beforeRetry`) runs it that much later.
   */
  async replyThrough429(
    itemId: number,
    text: string,
    rateLimitNext: (seconds: number) => void,
    { seconds = 30, beforeRetry }: { seconds?: number; beforeRetry?: () => void } = {},
  ) {
    const sent = await this.reply(itemId, text);
    expect(sent.statusCode, sent.body).toBe(200);
    rateLimitNext(seconds);
    await this.drain();
    const [pending] = await this.db().select().from(outbox).where(eq(outbox.itemId, sent.json().reply.id));
    expect(pending!.runAt.getTime()).toBe(this.clock + seconds * 1000);
    beforeRetry?.();
    await this.drain(seconds * 1000);
    return sent;
  }

  /** One whole polling round as node `nodeId` (started, released once, stopped). */
  async pollOneRound(nodeId: string) {
    await this.startPolling(nodeId);
    await this.untilWaits(this.waits.length + 1);
    this.release();
    await this.untilWaits(this.waits.length + 1);
    await this.stopPolling();
  }

  /** Waits until the polling manager is waiting for the `n`-th time (a round finished). */
  untilWaits(n: number) {
    return until(() => Promise.resolve(this.waits.length >= n));
  }
}

/**
 * A store testbed and its emulator, started and closed by the test file's hooks (the emulator first:
 * the app's environment is its `env`); `started` hands the test the emulator.
 */
export function storeTestbed<E extends { env: Record<string, string>; close(): Promise<unknown> }>(
  provider: ProviderId,
  start: () => Promise<E>,
  started: (emu: E) => void,
) {
  let emu: E;
  const w = new StoreTestbed(provider, () => emu.env);
  beforeAll(async () => {
    emu = await start();
    started(emu);
    await w.start();
  });
  afterAll(async () => {
    await w.close();
    await emu.close();
  });
  return w;
}

/** Polls a condition (bounded) while background work (the polling loop) runs. */
export async function until<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
