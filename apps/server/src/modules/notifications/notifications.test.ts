import type { AddressInfo } from 'node:net';
import { type NotificationListWire, presetFor } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelegramEmulator } from '../../../emulators/telegram/emulator';
import { createTestApp, type TestApp } from '../../../test/harness';
import { commentEvent } from '../../../test/inbox-helpers';
import { startSmtpServer } from '../../../test/smtp';
import { openSocket } from '../../../test/socket';
import {
  memberships,
  notificationDeliveries,
  notifications,
  userGroups,
  userStatuses,
} from '../../db/schema';
import { DELIVERY_LEASE_MS, deliveryBackoffMs, MAX_DELIVERY_ATTEMPTS } from '../../jobs/notification-chat';
import { NOTIFICATION_RETENTION_MS, NotificationDeliveryJob } from '../../jobs/notification-delivery';
import { Mailer } from '../../mail/mailer';
import { telegramApi } from '../../providers/telegram/client';
import { readKit } from '../inbox/read/read-kit';
import { addMember } from '../spaces/service';
import { captureEvents } from '../users/testing';
import { dueAt, notify } from './service';
import { createLinkCode, TelegramNotifyBot } from './telegram';

// Notifications (issue 18) on the real database: assignment and mentions write the user's notification
// and send the socket `notify`; the email job sends digests with only what the user may see, one space
// per mail, with a working one-click unsubscribe, and never twice (a second node or a restart).

let t: TestApp;
let wsBase: string;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?access_token=`;
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const { db, buildTeam, buildMember, ingestEvents, get } = readKit(() => t);

async function call(
  headers: Record<string, string>,
  method: 'POST' | 'PUT',
  url: string,
  payload?: unknown,
  status = 200,
) {
  const res = await t.app.inject({ method, url, headers, payload: payload as Record<string, unknown> });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
  return res.json();
}

const jobFor = (spaceIds: number[]) =>
  new NotificationDeliveryJob({
    db: db(),
    log: t.deps.log,
    mailer: t.deps.mailer,
    sealer: t.deps.sealer,
    appUrl: t.deps.config.appUrl,
    spaceIds,
  });

const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email.toLowerCase()));

describe('notifications', () => {
  it('an assignment writes the assignee’s notification and notifies their socket only; read, read all', async () => {
    const team = await buildTeam();
    const anna = await buildMember(team.space.id, 'operator', { name: 'Anna' });
    const boris = await buildMember(team.space.id, 'operator', { name: 'Boris' });
    const [itemId, otherId] = (await ingestEvents(team.sandbox, [commentEvent(), commentEvent()]))
      .itemIds as [number, number];
    const sockets = {
      anna: await openSocket(wsBase + anna.token),
      boris: await openSocket(wsBase + boris.token),
    };
    try {
      for (const s of Object.values(sockets)) await s.waitFor((m) => m.type === 'hello');
      await call(team.headers, 'PUT', `/v1/items/${itemId}/assign`, { user_id: anna.user.id });
      const got = await sockets.anna.waitFor((m) => m.type === 'notify');
      expect(got.notification).toMatchObject({
        type: 'item',
        event: 'assigned',
        item_id: itemId,
        title: 'Owner назначает вам запись',
        inapp: true,
      });
      await sockets.anna.waitFor((m) => m.type === 'notifications.changed');
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(
        sockets.boris.messages.filter((m) => m.type === 'notify' || m.type === 'notifications.changed'),
      ).toEqual([]);
    } finally {
      for (const s of Object.values(sockets)) await s.close();
    }
    const list = await get<NotificationListWire>(anna.headers, '/v1/notifications');
    expect(list.unread).toBe(1);
    expect(list.items).toMatchObject([
      { event: 'assigned', item_id: itemId, space_id: team.space.id, read_at: null },
    ]);
    expect((await get<NotificationListWire>(boris.headers, '/v1/notifications')).items).toEqual([]);

    // Assigning to oneself tells nobody; the same assignee again neither.
    await call(anna.headers, 'PUT', `/v1/items/${otherId}/assign`, { user_id: anna.user.id });
    await call(team.headers, 'PUT', `/v1/items/${itemId}/assign`, { user_id: anna.user.id });
    expect((await get<{ unread: number }>(anna.headers, '/v1/notifications/unread')).unread).toBe(1);

    // Someone else's notification cannot be marked; one's own can.
    await call(boris.headers, 'POST', `/v1/notifications/${list.items[0]!.id}/read`);
    expect((await get<{ unread: number }>(anna.headers, '/v1/notifications/unread')).unread).toBe(1);
    expect(await call(anna.headers, 'POST', `/v1/notifications/${list.items[0]!.id}/read`)).toEqual({
      unread: 0,
    });
    await call(team.headers, 'PUT', `/v1/items/${otherId}/assign`, { user_id: boris.user.id });
    await call(team.headers, 'PUT', `/v1/items/${itemId}/assign`, { user_id: boris.user.id });
    expect((await get<{ unread: number }>(boris.headers, '/v1/notifications/unread')).unread).toBe(2);
    expect(await call(boris.headers, 'POST', '/v1/notifications/read-all')).toEqual({ marked: 2, unread: 0 });
  });

  it('a mention in a note goes through the same path: one notify, one notification row', async () => {
    const team = await buildTeam();
    const anna = await buildMember(team.space.id, 'operator', { name: 'Anna' });
    const itemId = (await ingestEvents(team.sandbox, [commentEvent()])).itemIds[0]!;
    const socket = await openSocket(wsBase + anna.token);
    try {
      await socket.waitFor((m) => m.type === 'hello');
      await call(team.headers, 'POST', `/v1/items/${itemId}/notes`, { text: `<@${anna.user.id}> look` });
      const got = await socket.waitFor((m) => m.type === 'notify');
      expect(got.notification).toMatchObject({ type: 'mention', event: 'mention', item_id: itemId });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(socket.messages.filter((m) => m.type === 'notify')).toHaveLength(1);
    } finally {
      await socket.close();
    }
    const list = await get<NotificationListWire>(anna.headers, '/v1/notifications');
    expect(list.items).toMatchObject([
      { event: 'mention', item_id: itemId, title: 'Owner упоминает вас в заметке' },
    ]);
  });

  it('the hourly digest holds only what the user may see now, one space per mail; unsubscribe works', async () => {
    const team = await buildTeam();
    const anna = await buildMember(team.space.id, 'operator', { name: 'Anna' });
    const other = await buildTeam();
    await addMember(db(), other.space.id, anna.user.id, presetFor('operator'));
    const vkText = `VK visible ${Date.now()}`;
    const sandboxText = `Sandbox hidden ${Date.now()}`;
    const otherText = `Other space ${Date.now()}`;
    const vkItem = (await ingestEvents(team.vk, [commentEvent({ text: vkText })])).itemIds[0]!;
    const sandboxItem = (await ingestEvents(team.sandbox, [commentEvent({ text: sandboxText })])).itemIds[0]!;
    const otherItem = (await ingestEvents(other.sandbox, [commentEvent({ text: otherText })])).itemIds[0]!;
    await call(team.headers, 'PUT', `/v1/items/${vkItem}/assign`, { user_id: anna.user.id });
    await call(team.headers, 'PUT', `/v1/items/${sandboxItem}/assign`, { user_id: anna.user.id });
    await call(other.headers, 'PUT', `/v1/items/${otherItem}/assign`, { user_id: anna.user.id });

    // Anna is then limited to the VK account's user group: the sandbox item is no longer hers to see.
    const [group] = await db()
      .insert(userGroups)
      .values({ spaceId: team.space.id, name: 'VK desk', objectIds: [team.vk.id] })
      .returning();
    await db()
      .update(memberships)
      .set({ groupId: group!.id })
      .where(and(eq(memberships.userId, anna.user.id), eq(memberships.spaceId, team.space.id)));

    const job = jobFor([team.space.id, other.space.id]);
    const now = new Date();
    expect(await job.tick(now)).toBe(0); // hourly: nothing before the hour ends
    const hourEnd = dueAt('hourly', now);
    expect(await job.tick(new Date(hourEnd.getTime() + 1_000))).toBe(2);

    const mails = mailsTo(anna.user.email!);
    expect(mails).toHaveLength(2);
    const teamMail = mails.find((m) => m.text.includes(vkText))!;
    const otherMail = mails.find((m) => m.text.includes(otherText))!;
    expect(teamMail).toBeDefined();
    expect(otherMail).toBeDefined();
    expect(teamMail.text).not.toContain(sandboxText);
    expect(teamMail.text).not.toContain(otherText);
    expect(otherMail.text).not.toContain(vkText);
    const skipped = await db()
      .select({ state: notificationDeliveries.state })
      .from(notificationDeliveries)
      .innerJoin(notifications, eq(notifications.id, notificationDeliveries.notificationId))
      .where(eq(notifications.itemId, sandboxItem));
    expect(skipped).toEqual([{ state: 'skipped' }]);

    // RFC 8058: the header, a GET that only asks, a POST that unsubscribes.
    expect(teamMail.raw).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
    const header = /List-Unsubscribe:\s*<([^>]+)>/.exec(teamMail.raw.replace(/\r?\n\s+/g, ''))![1]!;
    const url = new URL(header);
    const path = `${url.pathname}${url.search}`;
    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<form method="post"');
    let subs = await get<{ items: Array<{ event: string; channel: string; frequency: string }> }>(
      anna.headers,
      `/v1/notifications/subscriptions?space_id=${team.space.id}`,
    );
    expect(subs.items.find((s) => s.event === 'assigned' && s.channel === 'email')!.frequency).toBe('hourly');
    const done = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode).toBe(200);
    subs = await get(anna.headers, `/v1/notifications/subscriptions?space_id=${team.space.id}`);
    expect(subs.items.find((s) => s.event === 'assigned' && s.channel === 'email')).toMatchObject({
      frequency: 'never',
      custom: true,
    });
    // The other space is untouched; a made-up token is refused.
    subs = await get(anna.headers, `/v1/notifications/subscriptions?space_id=${other.space.id}`);
    expect(subs.items.find((s) => s.event === 'assigned' && s.channel === 'email')!.frequency).toBe('hourly');
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/notifications/unsubscribe?token=v1.a.b.c' }))
        .statusCode,
    ).toBe(404);
    // After unsubscribing, a new assignment is in the centre but queues no email.
    const again = (await ingestEvents(team.vk, [commentEvent()])).itemIds[0]!;
    await call(team.headers, 'PUT', `/v1/items/${again}/assign`, { user_id: anna.user.id });
    const rows = await db()
      .select({ id: notificationDeliveries.id })
      .from(notificationDeliveries)
      .innerJoin(notifications, eq(notifications.id, notificationDeliveries.notificationId))
      .where(eq(notifications.itemId, again));
    expect(rows).toEqual([]);
  });

  it('never sends twice: a second run, a restarted job, a crashed claim taken again once', async () => {
    const team = await buildTeam();
    const anna = await buildMember(team.space.id, 'operator', { name: 'Anna' });
    await call(anna.headers, 'PUT', '/v1/notifications/subscriptions', {
      space_id: team.space.id,
      items: [{ event: 'assigned', channel: 'email', frequency: 'at_once' }],
    });
    const [first, second] = (await ingestEvents(team.sandbox, [commentEvent(), commentEvent()])).itemIds as [
      number,
      number,
    ];
    await call(team.headers, 'PUT', `/v1/items/${first}/assign`, { user_id: anna.user.id });
    const now = new Date(Date.now() + 1_000);
    expect(await jobFor([team.space.id]).tick(now)).toBe(1);
    expect(await jobFor([team.space.id]).tick(now)).toBe(0);
    expect(mailsTo(anna.user.email!)).toHaveLength(1);

    // A node claims the next one and dies before sending: the lease keeps others off until it ends.
    await call(team.headers, 'PUT', `/v1/items/${second}/assign`, { user_id: anna.user.id });
    const [pending] = await db()
      .select()
      .from(notificationDeliveries)
      .where(
        and(eq(notificationDeliveries.userId, anna.user.id), eq(notificationDeliveries.state, 'pending')),
      );
    await db()
      .update(notificationDeliveries)
      .set({ lockedUntil: new Date(now.getTime() + DELIVERY_LEASE_MS), attempts: 1 })
      .where(eq(notificationDeliveries.id, pending!.id));
    const restarted = jobFor([team.space.id]);
    expect(await restarted.tick(now)).toBe(0);
    const later = new Date(now.getTime() + DELIVERY_LEASE_MS + 1_000);
    expect(await restarted.tick(later)).toBe(1);
    expect(await jobFor([team.space.id]).tick(later)).toBe(0);
    expect(mailsTo(anna.user.email!)).toHaveLength(2);
    const [sent] = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.id, pending!.id));
    expect(sent).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it('space defaults and quiet hours are for administrators; subscriptions refuse impossible frequencies', async () => {
    const team = await buildTeam();
    const anna = await buildMember(team.space.id, 'operator', { name: 'Anna' });
    const body = {
      space_id: team.space.id,
      defaults: [{ event: 'mention', channel: 'email', frequency: 'daily' }],
      quiet_from: '22:00',
      quiet_to: '08:00',
      time_zone: 'Europe/Moscow',
    };
    await call(anna.headers, 'PUT', '/v1/notifications/settings', body, 403);
    expect(await call(team.headers, 'PUT', '/v1/notifications/settings', body)).toMatchObject({
      quiet_from: '22:00',
      defaults: [{ event: 'mention', channel: 'email', frequency: 'daily' }],
    });
    const subs = await get<{
      items: Array<{ event: string; channel: string; frequency: string; custom: boolean }>;
    }>(anna.headers, `/v1/notifications/subscriptions?space_id=${team.space.id}`);
    expect(subs.items.find((s) => s.event === 'mention' && s.channel === 'email')).toMatchObject({
      frequency: 'daily',
      custom: false,
    });
    await call(
      anna.headers,
      'PUT',
      '/v1/notifications/subscriptions',
      { space_id: team.space.id, items: [{ event: 'mention', channel: 'inapp', frequency: 'hourly' }] },
      400,
    );
    const stranger = await buildTeam();
    await get(stranger.headers, `/v1/notifications/subscriptions?space_id=${team.space.id}`, 404);
  });

  it('no browser pop-up in quiet hours nor while offline; in-app off sends no toast; digests wait', async () => {
    const team = await buildTeam();
    const anna = await buildMember(team.space.id, 'operator', { name: 'Anna' });
    await call(team.headers, 'PUT', '/v1/notifications/settings', {
      space_id: team.space.id,
      defaults: [],
      quiet_from: '22:00',
      quiet_to: '08:00',
      time_zone: 'Europe/Moscow',
    });
    // Anna picks an online status (a new member starts offline until they choose one).
    const [online] = await db()
      .insert(userStatuses)
      .values({ spaceId: team.space.id, name: 'Online', offline: false })
      .returning();
    await db()
      .update(memberships)
      .set({ statusId: online!.id })
      .where(and(eq(memberships.userId, anna.user.id), eq(memberships.spaceId, team.space.id)));
    const events = captureEvents(t.deps.bus);
    const send = (now: Date) =>
      notify(
        { db: db(), bus: t.deps.bus },
        {
          spaceId: team.space.id,
          userIds: [anna.user.id],
          event: 'reply_failed',
          content: () => ({ title: `At ${now.toISOString()}`, text: '' }),
          now,
        },
      );
    const browserOf = async (title: string) => {
      const event = await events.waitFor(
        (e) =>
          e.type === 'notify' && JSON.stringify(e.payload).includes(title) && e.userIds?.[0] === anna.user.id,
      );
      return (event.payload.notification as { browser: boolean; inapp: boolean }).browser;
    };
    const night = new Date('2026-03-01T20:30:00Z'); // 23:30 in Moscow
    const day = new Date('2026-03-01T09:30:00Z'); // 12:30 in Moscow
    await send(night);
    expect(await browserOf(night.toISOString())).toBe(false);
    await send(day);
    expect(await browserOf(day.toISOString())).toBe(true);
    // In quiet hours the email job leaves the mail waiting.
    await call(anna.headers, 'PUT', '/v1/notifications/subscriptions', {
      space_id: team.space.id,
      items: [{ event: 'reply_failed', channel: 'email', frequency: 'at_once' }],
    });
    const [waiting] = await send(night);
    expect(await jobFor([team.space.id]).tick(night)).toBe(0);
    const [row] = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.notificationId, waiting!.id));
    expect(row).toMatchObject({ state: 'pending', attempts: 0 });

    // Offline: the status of the space is an offline one.
    const [offline] = await db()
      .insert(userStatuses)
      .values({ spaceId: team.space.id, name: 'Offline', offline: true })
      .returning();
    await db()
      .update(memberships)
      .set({ statusId: offline!.id })
      .where(and(eq(memberships.userId, anna.user.id), eq(memberships.spaceId, team.space.id)));
    const later = new Date('2026-03-01T10:30:00Z');
    await send(later);
    expect(await browserOf(later.toISOString())).toBe(false);

    // In-app off: the notification is kept for the centre, but no socket toast and no pop-up.
    await call(anna.headers, 'PUT', '/v1/notifications/subscriptions', {
      space_id: team.space.id,
      items: [
        { event: 'reply_failed', channel: 'inapp', frequency: 'never' },
        { event: 'reply_failed', channel: 'browser', frequency: 'never' },
      ],
    });
    const silent = new Date('2026-03-01T11:30:00Z');
    expect(await send(silent)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(
      events.events.filter(
        (e) => e.type === 'notify' && JSON.stringify(e.payload).includes(silent.toISOString()),
      ),
    ).toEqual([]);
    events.stop();
  });

  it('a refused SMTP send is retried with backoff, given up after the attempts, and shows on my channels', async () => {
    const team = await buildTeam();
    const anna = await buildMember(team.space.id, 'operator', { name: 'Anna' });
    await call(anna.headers, 'PUT', '/v1/notifications/subscriptions', {
      space_id: team.space.id,
      items: [{ event: 'assigned', channel: 'email', frequency: 'at_once' }],
    });
    const itemId = (await ingestEvents(team.sandbox, [commentEvent()])).itemIds[0]!;
    await call(team.headers, 'PUT', `/v1/items/${itemId}/assign`, { user_id: anna.user.id });
    // A real SMTP connection to a port nobody listens on.
    const broken = new Mailer(db(), t.deps.log, {
      smtpUrl: 'smtp://127.0.0.1:1',
      from: 'Otklik <no-reply@x.test>',
    });
    const job = new NotificationDeliveryJob({
      db: db(),
      log: t.deps.log,
      mailer: broken,
      sealer: t.deps.sealer,
      appUrl: t.deps.config.appUrl,
      spaceIds: [team.space.id],
    });
    const rowOf = async () =>
      (
        await db()
          .select()
          .from(notificationDeliveries)
          .where(eq(notificationDeliveries.userId, anna.user.id))
      )[0]!;
    let now = new Date(Date.now() + 1_000);
    for (let attempt = 1; attempt <= MAX_DELIVERY_ATTEMPTS; attempt++) {
      expect(await job.tick(now)).toBe(0);
      const row = await rowOf();
      expect(row.attempts).toBe(attempt);
      expect(row.lastError).toBeTruthy();
      if (attempt < MAX_DELIVERY_ATTEMPTS) {
        expect(row).toMatchObject({ state: 'pending', lockedUntil: null });
        expect(row.dueAt.getTime() - now.getTime()).toBe(deliveryBackoffMs(attempt));
        // Not again before the backoff ends.
        expect(await job.tick(new Date(row.dueAt.getTime() - 1_000))).toBe(0);
        expect((await rowOf()).attempts).toBe(attempt);
        now = new Date(row.dueAt.getTime() + 1_000);
      } else expect(row.state).toBe('failed');
    }
    broken.close();
    const health = await get<{ email: { failed: number; last_error: string | null } }>(
      anna.headers,
      '/v1/notifications/channels',
    );
    expect(health.email.failed).toBe(1);
    expect(health.email.last_error).toBeTruthy();
    expect((await get<typeof health>(team.headers, '/v1/notifications/channels')).email.failed).toBe(0);
  });

  it('notifications older than the retention go, with their deliveries; recent ones stay', async () => {
    const team = await buildTeam();
    const anna = await buildMember(team.space.id, 'operator', { name: 'Anna' });
    const now = new Date();
    const make = (at: Date) =>
      notify(
        { db: db(), bus: t.deps.bus },
        {
          spaceId: team.space.id,
          userIds: [anna.user.id],
          event: 'reply_failed',
          content: () => ({ title: at.toISOString(), text: '' }),
          now: at,
        },
      );
    const [old] = await make(new Date(now.getTime() - NOTIFICATION_RETENTION_MS - 86_400_000));
    const [recent] = await make(new Date(now.getTime() - 86_400_000));
    expect(await jobFor([team.space.id]).prune(now)).toBe(1);
    const left = await db()
      .select({ id: notifications.id })
      .from(notifications)
      .where(eq(notifications.userId, anna.user.id));
    expect(left.map((r) => r.id)).toEqual([recent!.id]);
    const deliveries = await db()
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.notificationId, old!.id));
    expect(deliveries).toEqual([]);
  });

  it('Telegram: a one-time code links the chat; notifications arrive as the bot’s messages, once', async () => {
    const tg = await startTelegramEmulator();
    try {
      const token = `${700_000 + Math.floor(Math.random() * 1000)}:AAnotify`;
      tg.addBot(token, { id: Number(token.split(':')[0]), username: 'otklik_notify_bot' });
      const api = telegramApi(
        { config: { TELEGRAM_API_URL: tg.url, NETWORK_TIMEOUT_MS: 30_000 }, fetch },
        token,
      );
      const bot = new TelegramNotifyBot({ db: db(), log: t.deps.log, api });
      expect(await bot.identify()).toBe('otklik_notify_bot');
      const team = await buildTeam();
      const anna = await buildMember(team.space.id, 'operator', { name: 'Anna' });
      const code = await createLinkCode(db(), anna.user.id, bot.username);
      expect(code.link).toBe(`https://t.me/otklik_notify_bot?start=${code.code}`);

      const person = { id: 5551, is_bot: false, first_name: 'Anna' };
      const chat = { id: 5551, type: 'private' as const, first_name: 'Anna' };
      const say = (text: string) =>
        tg.deliver(token, { message: tg.customerMessage(token, { chat, from: person, text }) });
      await say(`/start ${code.code}`);
      expect(await bot.tick()).toBe(1);
      expect(tg.callsOf('sendMessage').at(-1)!.params).toMatchObject({
        text: 'Готово: уведомления Otklik будут приходить в этот чат.',
      });
      // The code worked once.
      await say(`/start ${code.code}`);
      expect(await bot.tick()).toBe(0);
      expect(String(tg.callsOf('sendMessage').at(-1)!.params.text)).toContain('Код не подошёл');

      const job = new NotificationDeliveryJob({
        db: db(),
        log: t.deps.log,
        mailer: t.deps.mailer,
        sealer: t.deps.sealer,
        appUrl: t.deps.config.appUrl,
        spaceIds: [team.space.id],
        telegram: api,
      });
      const itemId = (await ingestEvents(team.sandbox, [commentEvent()])).itemIds[0]!;
      await call(team.headers, 'PUT', `/v1/items/${itemId}/assign`, { user_id: anna.user.id });
      const before = tg.callsOf('sendMessage').length;
      const now = new Date(Date.now() + 1_000);
      expect(await job.tickTelegram(now)).toBe(1);
      expect(await job.tickTelegram(now)).toBe(0);
      const sent = tg.callsOf('sendMessage').slice(before);
      expect(sent).toHaveLength(1);
      expect(String(sent[0]!.params.chat_id)).toBe('5551');
      expect(String(sent[0]!.params.text)).toContain('Owner назначает вам запись');
      expect(String(sent[0]!.params.text)).toContain(`/items/${itemId}`);
      // The email job leaves Telegram deliveries alone, and the Telegram job the email ones.
      expect(await job.tick(new Date(now.getTime() + 7 * 86_400_000 + 1_000))).toBe(1);
      expect(tg.callsOf('sendMessage').length).toBe(before + 1);

      // Telegram switched off: no delivery for it any more; unlinked: none either.
      await call(anna.headers, 'PUT', '/v1/notifications/subscriptions', {
        space_id: team.space.id,
        items: [{ event: 'assigned', channel: 'telegram', frequency: 'never' }],
      });
      const other = (await ingestEvents(team.sandbox, [commentEvent()])).itemIds[0]!;
      await call(team.headers, 'PUT', `/v1/items/${other}/assign`, { user_id: anna.user.id });
      expect(await job.tickTelegram(new Date(Date.now() + 1_000))).toBe(0);
      expect(await get<{ linked: boolean }>(anna.headers, '/v1/notifications/telegram')).toMatchObject({
        available: false,
        linked: true,
      });
      await t.app.inject({ method: 'DELETE', url: '/v1/notifications/telegram', headers: anna.headers });
      expect(await get<{ linked: boolean }>(anna.headers, '/v1/notifications/telegram')).toMatchObject({
        linked: false,
      });
    } finally {
      await tg.close();
    }
  });
});
