import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { items, objects } from '../../src/db/schema';
import { PollingManager } from '../../src/jobs/pollers';
import { YouTubeEmulator } from '../../src/providers/youtube/emulator';
import type { EmulatedChannel } from '../../src/providers/youtube/emulator-state';
import { createTestApp, type TestApp } from '../harness';
import { buildWorker, buildWorkspace } from '../inbox-actions';

// TEST-ONLY: an app wired to the YouTube emulator, the OAuth popup as steps, and a polling manager
// whose waits the test releases (no sleeps): each wait it asks for is recorded, then held until `tick`.

export const APP_ID = 'otklik-yt.apps.googleusercontent.com';
export const APP_SECRET = 'GOCSPX-otklik';

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

export class YouTubeTestbed {
  t!: TestApp;
  emu!: YouTubeEmulator;
  headers: Record<string, string> = {};
  spaceId = 0;
  clock = Date.now();

  db() {
    return this.t.deps.database.db;
  }

  async start(env: Record<string, string> = {}) {
    this.emu = await YouTubeEmulator.start();
    this.emu.network.addClient(APP_ID, APP_SECRET);
    this.t = await createTestApp({
      ...this.emu.env,
      YOUTUBE_CLIENT_ID: APP_ID,
      YOUTUBE_CLIENT_SECRET: APP_SECRET,
      PROVIDER_UPDATES: 'polling',
      ...env,
    });
    const admin = await buildWorkspace(this.t);
    this.headers = admin.headers;
    this.spaceId = admin.space.id;
  }

  async close() {
    await this.t.close();
    await this.emu.close();
  }

  redirectUri() {
    return `${this.t.deps.config.appUrl}/callback/youtube`;
  }

  /** What the popup does: open Google's page, and come back with what it put in the address. */
  async popup() {
    const start = await this.t.app.inject({
      url: `/v1/youtube/auth/start?redirect_uri=${encodeURIComponent(this.redirectUri())}`,
      headers: this.headers,
    });
    expect(start.statusCode, start.body).toBe(200);
    const answer = await fetch(start.json().url as string, { redirect: 'manual' });
    return Object.fromEntries(new URL(answer.headers.get('location')!).searchParams);
  }

  finish(back: Record<string, string>) {
    return this.t.app.inject({
      method: 'POST',
      url: '/v1/youtube/auth',
      headers: this.headers,
      payload: { ...back, redirect_uri: this.redirectUri() },
    });
  }

  /** A channel connected through the popup; returns its account row. */
  async connect(title = 'Канал мастерской') {
    const channel = this.emu.network.addChannel(title);
    this.emu.network.consenting = channel;
    const res = await this.finish(await this.popup());
    expect(res.statusCode, res.body).toBe(200);
    return { channel, id: res.json().object.id as number, object: res.json().object };
  }

  /** Like connect, with one older comment on the channel that the import on connect brings. */
  async connectWithHistory(title = 'Канал мастерской') {
    const channel = this.emu.network.addChannel(title);
    this.emu.network.addComment({
      channelId: channel.id,
      text: 'Старый комментарий',
      at: new Date(Date.now() - 3_600_000),
    });
    this.emu.network.consenting = channel;
    const res = await this.finish(await this.popup());
    expect(res.statusCode, res.body).toBe(200);
    return { channel, id: res.json().object.id as number, object: res.json().object };
  }

  async row(id: number) {
    return (await this.db().select().from(objects).where(eq(objects.id, id)))[0]!;
  }

  itemsOf(objectId: number) {
    return this.db().select().from(items).where(eq(items.objectId, objectId)).orderBy(items.id);
  }

  async item(objectId: number, externalId: string) {
    const [row] = await this.db()
      .select()
      .from(items)
      .where(and(eq(items.objectId, objectId), eq(items.externalId, externalId)));
    return row;
  }

  /** A polling manager for this file's space whose waits the ticker holds. */
  poller(ticker: Ticker, node = `yt-test-${process.pid}-${Math.random()}`) {
    return new PollingManager(
      {
        db: this.db(),
        bus: this.t.deps.bus,
        sealer: this.t.deps.sealer,
        config: this.t.deps.config,
        log: this.t.deps.log,
      },
      node,
      { spaceIds: [this.spaceId], wait: ticker.wait, random: () => 0.5 },
    );
  }

  drain(advanceMs?: number) {
    this.clock = advanceMs === undefined ? Math.max(this.clock, Date.now()) + 1_000 : this.clock + advanceMs;
    return buildWorker(this.t, { spaceIds: [this.spaceId], now: () => new Date(this.clock) }).drain();
  }

  inject(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
    return this.t.app.inject({ method, url, headers: this.headers, payload });
  }
}

export type { EmulatedChannel };
