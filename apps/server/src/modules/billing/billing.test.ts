import type { AddressInfo } from 'node:net';
import { billingState } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeEmulator, startStripeEmulator } from '../../../emulators/stripe/emulator';
import { startYookassaEmulator, type YookassaEmulator } from '../../../emulators/yookassa/emulator';
import { createTestApp, type TestApp } from '../../../test/harness';
import { payments, spaces } from '../../db/schema';
import { buildAdmin, buildMember } from '../users/testing';

// Issue 14 item 3, the "Done when" walk on the server: a trial expires, its administrator still reaches
// billing, pays through the Stripe emulator (signed webhook) or the YooKassa emulator (notification
// from an allowed address, status re-fetched), and the space is active (white) again; a replayed
// webhook does nothing; forged ones are rejected, change nothing and are logged.

const STRIPE = { secretKey: 'sk_test_emulator_123', webhookSecret: 'whsec_emulator_456' };
const YOOKASSA = { shopId: '506751', secretKey: 'test_yookassa_secret' };

let t: TestApp;
let bare: TestApp;
let stripe: StripeEmulator & { setWebhookUrl(url: string): void };
let yookassa: YookassaEmulator;

beforeAll(async () => {
  stripe = await startStripeEmulator(STRIPE);
  yookassa = await startYookassaEmulator(YOOKASSA);
  t = await createTestApp({
    STRIPE_SECRET_KEY: STRIPE.secretKey,
    STRIPE_WEBHOOK_SECRET: STRIPE.webhookSecret,
    STRIPE_API_URL: stripe.url,
    YOOKASSA_SHOP_ID: YOOKASSA.shopId,
    YOOKASSA_SECRET_KEY: YOOKASSA.secretKey,
    YOOKASSA_API_URL: yookassa.url,
    // The emulator notifies from loopback; YooKassa's real ranges are the default.
    YOOKASSA_NOTIFY_IPS: '127.0.0.1,::1',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  stripe.setWebhookUrl(`${base}/v1/billing/webhooks/stripe`);
  yookassa.setNotifyUrl(`${base}/v1/billing/webhooks/yookassa`);
  bare = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
  await stripe?.close();
  await yookassa?.close();
});

const db = () => t.deps.database.db;
const nowS = () => Math.floor(Date.now() / 1000);

async function expiredTrialAdmin() {
  const admin = await buildAdmin(t);
  await db()
    .update(spaces)
    .set({ expiresAt: new Date(Date.now() - 3_600_000), isTrial: true })
    .where(eq(spaces.id, admin.space.id));
  return admin;
}

const billing = async (admin: { headers: Record<string, string>; space: { id: number } }) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/billing?space_id=${admin.space.id}`,
    headers: admin.headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json();
};

const checkout = (
  admin: { headers: Record<string, string>; space: { id: number } },
  provider: 'stripe' | 'yookassa',
  period = 30,
) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/billing/checkout',
    headers: admin.headers,
    payload: { space_id: admin.space.id, tariff_id: 1, period_days: period, provider },
  });

const paymentRow = async (id: number) => (await db().select().from(payments).where(eq(payments.id, id)))[0]!;
const spaceRow = async (id: number) => (await db().select().from(spaces).where(eq(spaces.id, id)))[0]!;

describe('billing screen data', () => {
  it('shows the expired space to its administrator with its deletion date and the configured providers', async () => {
    const admin = await expiredTrialAdmin();
    const view = await billing(admin);
    expect(billingState(view.space, nowS())).toBe('red');
    expect(view.deletion_at).toBe(view.space.expires_at + 3 * 86_400);
    expect(view.providers).toEqual([
      { id: 'stripe', currency: 'USD' },
      { id: 'yookassa', currency: 'RUB' },
    ]);
    expect(view.payments).toEqual([]);
    // The tariffs on sale come with it: an expired space reaches /v1/billing only.
    expect(view.tariffs.map((tariff: { id: number }) => tariff.id)).toEqual([1, 2, 20]);
  });

  it('without keys offers no provider and refuses a checkout', async () => {
    const admin = await buildAdmin(bare);
    const view = await bare.app.inject({
      method: 'GET',
      url: `/v1/billing?space_id=${admin.space.id}`,
      headers: admin.headers,
    });
    expect(view.json().providers).toEqual([]);
    const res = await bare.app.inject({
      method: 'POST',
      url: '/v1/billing/checkout?locale=en',
      headers: admin.headers,
      payload: { space_id: admin.space.id, tariff_id: 1, period_days: 30, provider: 'stripe' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('This payment method is not configured on the server');
  });

  it('is for administrators only', async () => {
    const admin = await buildAdmin(t);
    const operator = await buildMember(t, admin.space.id, 'operator');
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/billing?space_id=${admin.space.id}`,
      headers: operator.headers,
    });
    expect(res.statusCode).toBe(403);
    const pay = await checkout({ headers: operator.headers, space: admin.space }, 'stripe');
    expect(pay.statusCode).toBe(403);
  });
});

describe('a tariff smaller than the space', () => {
  it('is refused: more users than it allows', async () => {
    const admin = await buildAdmin(t);
    for (let i = 0; i < 3; i++) await buildMember(t, admin.space.id, 'operator');
    const res = await checkout(admin, 'stripe'); // Start: 3 users; the space has 4
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'В пространстве больше пользователей или аккаунтов, чем позволяет этот тариф',
      error_type: 'tariff_too_small',
    });
  });
});

describe('Stripe Checkout', () => {
  it('trial expired → pay → signed webhook → paid, white; a replay and forgeries change nothing', async () => {
    const admin = await expiredTrialAdmin();
    const started = await checkout(admin, 'stripe', 30);
    expect(started.statusCode).toBe(200);
    const { payment_id, redirect_url } = started.json();
    expect(redirect_url).toMatch(new RegExp(`^${stripe.url}/c/pay/cs_test_`));
    const row = await paymentRow(payment_id);
    expect(row).toMatchObject({ state: 'pending', amount: 29, currency: 'USD', periodDays: 30 });
    const session = stripe.sessions.get(row.providerPaymentId!)!;
    expect(session).toMatchObject({
      amount_total: 2900,
      currency: 'usd',
      client_reference_id: String(payment_id),
    });
    expect(session.success_url).toBe(`${t.deps.config.appUrl}/settings/billing/report/${payment_id}`);

    // A forged event: the right shape, signed with another secret.
    const forgedPayload = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { ...session, payment_status: 'paid', status: 'complete' } },
    });
    const forged = await stripe.deliver(forgedPayload, stripe.sign(forgedPayload, undefined, 'whsec_wrong'));
    expect(forged.status).toBe(400);
    // Signed correctly but too old (outside the tolerance): a replay of a captured request.
    const stale = await stripe.deliver(forgedPayload, stripe.sign(forgedPayload, nowS() - 3_600));
    expect(stale.status).toBe(400);
    // No signature at all.
    const unsigned = await stripe.deliver(forgedPayload, '');
    expect(unsigned.status).toBe(400);
    expect((await paymentRow(payment_id)).state).toBe('pending');
    expect((await spaceRow(admin.space.id)).isTrial).toBe(true);
    expect(t.logs.filter((l) => l.includes('Stripe webhook rejected')).length).toBeGreaterThanOrEqual(3);

    const paid = await stripe.pay(row.providerPaymentId!);
    expect(paid.status).toBe(200);
    const after = await billing(admin);
    expect(after.space.is_trial).toBe(false);
    expect(after.space.expires_at).toBeGreaterThan(nowS() + 29 * 86_400);
    expect(after.space.expires_at).toBeLessThanOrEqual(nowS() + 30 * 86_400);
    expect(billingState(after.space, nowS())).toBe('white');
    expect(after.payments).toHaveLength(1);
    expect(after.payments[0]).toMatchObject({
      id: payment_id,
      state: 'succeeded',
      amount: 29,
      currency: 'USD',
    });

    // The same delivery again (Stripe retries): acknowledged, nothing extended twice.
    const replay = await stripe.deliver(paid.payload, stripe.sign(paid.payload));
    expect(replay.status).toBe(200);
    const again = await billing(admin);
    expect(again.space.expires_at).toBe(after.space.expires_at);

    const report = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/payments/${payment_id}`,
      headers: admin.headers,
    });
    expect(report.json()).toMatchObject({
      state: 'succeeded',
      period_days: 30,
      tariff: { id: 1, name: 'Start' },
    });
    expect(report.json().expires_after).toBe(after.space.expires_at);
    // Another administrator cannot read it.
    const other = await buildAdmin(t);
    const hidden = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/payments/${payment_id}`,
      headers: other.headers,
    });
    expect(hidden.statusCode).toBe(404);
  });

  it('two deliveries at once extend the space once', async () => {
    const admin = await expiredTrialAdmin();
    const { payment_id } = (await checkout(admin, 'stripe', 180)).json();
    const row = await paymentRow(payment_id);
    const session = stripe.sessions.get(row.providerPaymentId!)!;
    session.payment_status = 'paid';
    const payload = JSON.stringify({
      id: 'evt_twice',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: session },
    });
    const results = await Promise.all([
      stripe.deliver(payload, stripe.sign(payload)),
      stripe.deliver(payload, stripe.sign(payload)),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const space = await spaceRow(admin.space.id);
    const days = (space.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(179);
    expect(days).toBeLessThanOrEqual(180);
  });

  it('a paid amount that differs from the checkout is not applied', async () => {
    const admin = await expiredTrialAdmin();
    const { payment_id } = (await checkout(admin, 'stripe', 30)).json();
    const row = await paymentRow(payment_id);
    const session = {
      ...stripe.sessions.get(row.providerPaymentId!)!,
      amount_total: 100,
      payment_status: 'paid',
    };
    const payload = JSON.stringify({
      id: 'evt_amt',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: session },
    });
    expect((await stripe.deliver(payload, stripe.sign(payload))).status).toBe(200);
    expect((await paymentRow(payment_id)).state).toBe('pending');
    expect((await spaceRow(admin.space.id)).isTrial).toBe(true);
  });
});

describe('coming back through the cancel link', () => {
  it('expires the Checkout Session at Stripe and shows the payment as not completed', async () => {
    const admin = await expiredTrialAdmin();
    const { payment_id } = (await checkout(admin, 'stripe', 30)).json();
    const row = await paymentRow(payment_id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/billing/payments/${payment_id}/cancel`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().state).toBe('canceled');
    expect(stripe.sessions.get(row.providerPaymentId!)!.status).toBe('expired');
  });

  it('a success the provider confirms after a local cancel still extends the space, once', async () => {
    const admin = await expiredTrialAdmin();
    const { payment_id } = (await checkout(admin, 'stripe', 30)).json();
    const row = await paymentRow(payment_id);
    await db().update(payments).set({ state: 'canceled' }).where(eq(payments.id, payment_id));
    const paid = await stripe.pay(row.providerPaymentId!);
    expect(paid.status).toBe(200);
    expect((await paymentRow(payment_id)).state).toBe('succeeded');
    const once = (await spaceRow(admin.space.id)).expiresAt.getTime();
    await stripe.deliver(paid.payload, stripe.sign(paid.payload));
    expect((await spaceRow(admin.space.id)).expiresAt.getTime()).toBe(once);
  });
});

describe('YooKassa', () => {
  it('trial expired → pay → notification verified by address and re-fetch → paid, white', async () => {
    const admin = await expiredTrialAdmin();
    const started = await checkout(admin, 'yookassa', 180);
    expect(started.statusCode).toBe(200);
    const { payment_id, redirect_url } = started.json();
    const row = await paymentRow(payment_id);
    expect(row).toMatchObject({ amount: 10990, currency: 'RUB', periodDays: 180 });
    expect(redirect_url).toBe(`${yookassa.url}/checkout/${row.providerPaymentId}`);
    expect(yookassa.creates.at(-1)!.idempotenceKey).toBe(row.idempotenceKey);
    const payment = yookassa.payments.get(row.providerPaymentId!)!;
    expect(payment.amount).toEqual({ value: '10990.00', currency: 'RUB' });
    expect(payment.confirmation.return_url).toBe(
      `${t.deps.config.appUrl}/settings/billing/report/${payment_id}`,
    );

    // A forged "succeeded" from outside YooKassa's addresses: refused and logged.
    const claim = {
      type: 'notification',
      event: 'payment.succeeded',
      object: { ...payment, status: 'succeeded', paid: true },
    };
    expect(await yookassa.notify(claim, '203.0.113.9')).toBe(403);
    expect(
      t.logs.some((l) => l.includes('YooKassa notification rejected') && l.includes('203.0.113.9')),
    ).toBe(true);
    // The same claim from an allowed address: the status is re-fetched, still pending — nothing changes.
    expect(await yookassa.notify(claim)).toBe(200);
    expect(yookassa.reads.at(-1)).toBe(payment.id);
    expect((await paymentRow(payment_id)).state).toBe('pending');
    expect((await spaceRow(admin.space.id)).isTrial).toBe(true);

    expect(await yookassa.settle(payment.id, 'succeeded')).toBe(200);
    const after = await billing(admin);
    expect(after.space.is_trial).toBe(false);
    expect(after.space.expires_at).toBeGreaterThan(nowS() + 179 * 86_400);
    expect(billingState(after.space, nowS())).toBe('white');
    expect(after.payments[0]).toMatchObject({ id: payment_id, state: 'succeeded', provider: 'yookassa' });

    // Delivered again: nothing more.
    expect(await yookassa.notify({ type: 'notification', event: 'payment.succeeded', object: payment })).toBe(
      200,
    );
    expect((await billing(admin)).space.expires_at).toBe(after.space.expires_at);
  });

  it('acknowledges a notification about a payment that is not ours without asking the API', async () => {
    const reads = yookassa.reads.length;
    const status = await yookassa.notify({
      type: 'notification',
      event: 'payment.succeeded',
      object: { id: '2ffffff0-000f-5000-9000-1de4a3fbbc3e', status: 'succeeded' },
    });
    expect(status).toBe(200);
    expect(yookassa.reads.length).toBe(reads);
    expect(t.logs.some((l) => l.includes('YooKassa notification for an unknown payment'))).toBe(true);
  });

  it('a canceled payment is shown as failed and leaves the space as it was', async () => {
    const admin = await expiredTrialAdmin();
    const { payment_id } = (await checkout(admin, 'yookassa', 30)).json();
    const row = await paymentRow(payment_id);
    expect(await yookassa.settle(row.providerPaymentId!, 'canceled')).toBe(200);
    const report = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/payments/${payment_id}`,
      headers: admin.headers,
    });
    expect(report.json()).toMatchObject({ state: 'canceled', expires_after: null });
    expect((await spaceRow(admin.space.id)).isTrial).toBe(true);
  });

  it("a provider that refuses the checkout answers SPEC's payment-failed message", async () => {
    const broken = await createTestApp({
      YOOKASSA_SHOP_ID: YOOKASSA.shopId,
      YOOKASSA_SECRET_KEY: 'wrong-key',
      YOOKASSA_API_URL: yookassa.url,
    });
    try {
      const admin = await buildAdmin(broken);
      const res = await broken.app.inject({
        method: 'POST',
        url: '/v1/billing/checkout',
        headers: admin.headers,
        payload: { space_id: admin.space.id, tariff_id: 1, period_days: 30, provider: 'yookassa' },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe('Не удалось завершить оплату. Попробуйте снова');
      expect(broken.logs.join('\n')).not.toContain('wrong-key');
    } finally {
      await broken.close();
    }
  });
});

describe('export before deletion', () => {
  it("streams the space's content as JSON to its administrator: its rows only, no secrets", async () => {
    const { buildComment, buildObject, buildWorkspace } = await import('../../../test/inbox-actions');
    const mine = await buildWorkspace(t);
    const theirs = await buildWorkspace(t);
    const object = await buildObject(t, mine.space.id, { provider: 'vk' });
    await buildComment(t, object, { text: 'Привет из экспорта' });
    await buildComment(t, await buildObject(t, theirs.space.id, { provider: 'vk' }), { text: 'чужое' });
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/export?space_id=${mine.space.id}`,
      headers: mine.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="otklik-space-\d+-/);
    const doc = res.json();
    expect(doc).toMatchObject({ format: 'otklik-space-export', version: 1, space_id: mine.space.id });
    expect(doc.tables.items).toHaveLength(1);
    expect(doc.tables.objects[0]).not.toHaveProperty('credentials');
    for (const [, rows] of Object.entries(doc.tables as Record<string, Array<{ space_id: number }>>))
      for (const row of rows) expect(row.space_id).toBe(mine.space.id);
    expect(res.body).not.toContain('чужое');
    const denied = await t.app.inject({
      method: 'GET',
      url: `/v1/billing/export?space_id=${mine.space.id}`,
      headers: theirs.headers,
    });
    expect(denied.statusCode).toBe(403);
  });
});
