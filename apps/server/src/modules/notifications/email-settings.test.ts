import type { EmailPreviewWire, SpaceEmailSettingsWire } from '@otklik/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { commentEvent } from '../../../test/inbox-helpers';
import { startSmtpServer } from '../../../test/smtp';
import { NotificationDeliveryJob } from '../../jobs/notification-delivery';
import { readKit } from '../inbox/read/read-kit';

// settings/email (issue 18): the space's sender of notification emails (administrators only), a test
// email to the caller through the configured mailer — caught by a real SMTP server — and the preview of
// the notification email in ru and en. The notification emails themselves go out from that sender.

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const { db, buildTeam, buildMember, ingestEvents, get } = readKit(() => t);

async function send(
  headers: Record<string, string>,
  method: 'POST' | 'PUT',
  url: string,
  payload: unknown,
  status = 200,
) {
  const res = await t.app.inject({ method, url, headers, payload: payload as Record<string, unknown> });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
  return res.json();
}

describe('settings/email', () => {
  it('administrators set the sender; a test email reaches the caller from it; members may not', async () => {
    const team = await buildTeam();
    const spaceId = team.space.id;
    const anna = await buildMember(spaceId, 'operator', { name: 'Anna' });
    const initial = await get<SpaceEmailSettingsWire>(
      team.headers,
      `/v1/notifications/email?space_id=${spaceId}`,
    );
    expect(initial).toEqual({
      space_id: spaceId,
      from_name: null,
      from_address: null,
      from: t.deps.mailer.defaultFrom,
      smtp: true,
    });
    await get(anna.headers, `/v1/notifications/email?space_id=${spaceId}`, 403);
    await send(
      anna.headers,
      'PUT',
      '/v1/notifications/email',
      {
        space_id: spaceId,
        from_name: 'X',
        from_address: null,
      },
      403,
    );
    await send(anna.headers, 'POST', '/v1/notifications/email/test', { space_id: spaceId }, 403);
    const bad = await send(
      team.headers,
      'PUT',
      '/v1/notifications/email',
      {
        space_id: spaceId,
        from_name: 'Пекарня',
        from_address: 'not an address',
      },
      400,
    );
    expect(JSON.stringify(bad)).toContain('from_address');

    const saved = (await send(team.headers, 'PUT', '/v1/notifications/email', {
      space_id: spaceId,
      from_name: ' Пекарня "У дома" ',
      from_address: 'hello@bakery.test',
    })) as SpaceEmailSettingsWire;
    expect(saved).toMatchObject({
      from_name: 'Пекарня "У дома"',
      from_address: 'hello@bakery.test',
      from: '"Пекарня У дома" <hello@bakery.test>',
    });

    const result = await send(team.headers, 'POST', '/v1/notifications/email/test', { space_id: spaceId });
    expect(result).toMatchObject({ sent: true, to: team.user.email, smtp: true });
    const mail = await smtp.waitForMail({ to: team.user.email!, subject: /Проверка почты/ });
    expect(mail.from).toBe('hello@bakery.test');
    expect(mail.raw).toMatch(/^From: .*<hello@bakery\.test>/m);
    expect(mail.text).toContain(team.space.name);

    // Only a name: MAIL_FROM's address with the space's name.
    const named = (await send(team.headers, 'PUT', '/v1/notifications/email', {
      space_id: spaceId,
      from_name: 'Bakery',
      from_address: '',
    })) as SpaceEmailSettingsWire;
    expect(named.from_address).toBeNull();
    expect(named.from).toMatch(/^"Bakery" <[^>]+>$/);
  });

  it('a refused test email says why', async () => {
    // A second app whose SMTP server refuses to connect (a port nobody listens on).
    const broken = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const kit = readKit(() => broken);
      const team = await kit.buildTeam();
      const res = await broken.app.inject({
        method: 'POST',
        url: '/v1/notifications/email/test',
        headers: team.headers,
        payload: { space_id: team.space.id },
      });
      expect(res.statusCode, res.body).toBe(502);
      expect(res.body).toContain('Почтовый сервер не принял письмо');
    } finally {
      await broken.close();
    }
  });

  it('the preview shows the notification email in ru and en; notification emails use the sender', async () => {
    const team = await buildTeam();
    const spaceId = team.space.id;
    const ru = await get<EmailPreviewWire>(
      team.headers,
      `/v1/notifications/email/preview?space_id=${spaceId}`,
    );
    expect(ru).toMatchObject({ locale: 'ru', subject: `Анна назначает вам запись — ${team.space.name}` });
    expect(ru.html).toContain('Отписаться');
    const en = await get<EmailPreviewWire>(
      team.headers,
      `/v1/notifications/email/preview?space_id=${spaceId}&locale=en`,
    );
    expect(en.subject).toBe(`Anna assigned an item to you — ${team.space.name}`);
    expect(en.html).toContain('Unsubscribe');
    expect(en.text).not.toMatch(/[А-Яа-яЁё]/);

    await send(team.headers, 'PUT', '/v1/notifications/email', {
      space_id: spaceId,
      from_name: 'Support',
      from_address: 'support@bakery.test',
    });
    const anna = await buildMember(spaceId, 'operator', { name: 'Anna' });
    await send(anna.headers, 'PUT', '/v1/notifications/subscriptions', {
      space_id: spaceId,
      items: [{ event: 'assigned', channel: 'email', frequency: 'at_once' }],
    });
    const itemId = (await ingestEvents(team.sandbox, [commentEvent()])).itemIds[0]!;
    await send(team.headers, 'PUT', `/v1/items/${itemId}/assign`, { user_id: anna.user.id });
    const job = new NotificationDeliveryJob({
      db: db(),
      log: t.deps.log,
      mailer: t.deps.mailer,
      sealer: t.deps.sealer,
      appUrl: t.deps.config.appUrl,
      spaceIds: [spaceId],
    });
    expect(await job.tick(new Date())).toBe(1);
    const mail = await smtp.waitForMail({ to: anna.user.email! });
    expect(mail.from).toBe('support@bakery.test');
    expect(mail.raw).toMatch(/^From: "?Support"? <support@bakery\.test>/m);
  });
});
