import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeEmulator, startStripeEmulator } from '../../../emulators/stripe/emulator';
import { loginTokens } from '../../../test/auth-helpers';
import { createTestApp, STRONG_PASSWORD, type TestApp, uniqueEmail } from '../../../test/harness';
import { memberships, payments, promocodes, referrals, spaces, users } from '../../db/schema';
import { buildAdmin } from '../users/testing';

// Issue 14 item 6: promocodes validated at signup (discount on the first payment, extra trial days),
// partners' links and codes attributing signups, the partner's share of referred payments, payouts.

const STRIPE = { secretKey: 'sk_test_referral', webhookSecret: 'whsec_referral' };
let t: TestApp;
let stripe: StripeEmulator & { setWebhookUrl(url: string): void };

beforeAll(async () => {
  stripe = await startStripeEmulator(STRIPE);
  t = await createTestApp({
    STRIPE_SECRET_KEY: STRIPE.secretKey,
    STRIPE_WEBHOOK_SECRET: STRIPE.webhookSecret,
    STRIPE_API_URL: stripe.url,
    REFERRAL_SHARE_PERCENT: '20',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  stripe.setWebhookUrl(
    `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/billing/webhooks/stripe`,
  );
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const db = () => t.deps.database.db;

async function signup(promocode?: string, locale = 'ru') {
  const email = uniqueEmail('ref');
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/signup?locale=${locale}`,
    payload: {
      name: 'Ольга',
      email,
      password: STRONG_PASSWORD,
      company: `Co ${email.slice(4, 10)}`,
      promocode,
    },
  });
  return { res, email };
}

async function spaceOf(email: string) {
  const [row] = await db()
    .select({ space: spaces, userId: users.id })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .innerJoin(spaces, eq(spaces.id, memberships.spaceId))
    .where(eq(users.email, email));
  return row!;
}

async function makePartner() {
  const partner = await buildAdmin(t);
  await db().update(users).set({ isPartner: true }).where(eq(users.id, partner.user.id));
  return partner;
}

describe('promocodes at signup', () => {
  it('refuses an unknown, switched-off or used-up code with a message on the field, and creates nothing', async () => {
    const unknown = await signup('NO-SUCH-CODE');
    expect(unknown.res.statusCode).toBe(400);
    expect(unknown.res.json()).toMatchObject({
      error: 'Промокод не найден или больше не действует',
      error_type: 'invalid_promocode',
      fields: { promocode: 'Промокод не найден или больше не действует' },
    });
    expect(await db().select().from(users).where(eq(users.email, unknown.email))).toEqual([]);

    // Codes are unique per run: the PostgreSQL test database keeps what earlier runs created.
    const suffix = randomUUID().slice(0, 8).toUpperCase();
    await db()
      .insert(promocodes)
      .values({ code: `OFF${suffix}`, isActive: false });
    expect((await signup(`off${suffix.toLowerCase()}`, 'en')).res.json().fields.promocode).toBe(
      'The promo code does not exist or is no longer valid',
    );
    await db()
      .insert(promocodes)
      .values({ code: `ONCE${suffix}`, maxUses: 1 });
    expect((await signup(`once${suffix.toLowerCase()}`)).res.statusCode).toBe(201);
    expect((await signup(`ONCE${suffix}`)).res.statusCode).toBe(400);
  });

  it('adds trial days, and takes its discount off the first payment only', async () => {
    const code = `WELCOME${randomUUID().slice(0, 8).toUpperCase()}`;
    await db().insert(promocodes).values({ code, extraTrialDays: 16, discountPercent: 50 });
    const { res, email } = await signup(` ${code.toLowerCase()} `);
    expect(res.statusCode).toBe(201);
    const { space } = await spaceOf(email);
    expect(space.promocode).toBe(code);
    const days = (space.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    await db().update(users).set({ emailStatus: 1 }).where(eq(users.email, email));
    const headers = { authorization: `Bearer ${(await loginTokens(t, email)).access_token}` };
    const view = await t.app.inject({ method: 'GET', url: `/v1/billing?space_id=${space.id}`, headers });
    expect(view.json().discount_percent).toBe(50);
    const pay = async () => {
      const started = await t.app.inject({
        method: 'POST',
        url: '/v1/billing/checkout',
        headers,
        payload: { space_id: space.id, tariff_id: 2, period_days: 30, provider: 'stripe' },
      });
      const [row] = await db().select().from(payments).where(eq(payments.id, started.json().payment_id));
      return row!;
    };
    const first = await pay();
    expect(first).toMatchObject({ amount: 35, discountPercent: 50 }); // 69 USD − 50 %, rounded
    expect(stripe.sessions.get(first.providerPaymentId!)!.amount_total).toBe(3500);
    await stripe.pay(first.providerPaymentId!);
    expect((await pay()).amount).toBe(69);
  });
});

describe('the referral program', () => {
  it('is for partners only', async () => {
    const admin = await buildAdmin(t);
    const res = await t.app.inject({ method: 'GET', url: '/v1/referral', headers: admin.headers });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('Партнёрская программа доступна только партнёрам');
  });

  it('attributes signups through the partner code, reports their payments and the share, takes a payout', async () => {
    const partner = await makePartner();
    const first = await t.app.inject({ method: 'GET', url: '/v1/referral', headers: partner.headers });
    expect(first.statusCode).toBe(200);
    const { code, link } = first.json();
    expect(code).toMatch(/^P[0-9A-F]{10}$/);
    expect(link).toBe(`${t.deps.config.appUrl}/signup?promocode=${code}`);
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/referral', headers: partner.headers })).json().code,
    ).toBe(code);

    const referred = await signup(code.toLowerCase());
    expect(referred.res.statusCode).toBe(201);
    const { space } = await spaceOf(referred.email);
    expect(await db().select().from(referrals).where(eq(referrals.spaceId, space.id))).toMatchObject([
      { partnerUserId: partner.user.id, code },
    ]);
    // Someone else's signup without the code is not the partner's.
    await signup();

    await db().update(users).set({ emailStatus: 1 }).where(eq(users.email, referred.email));
    const headers = { authorization: `Bearer ${(await loginTokens(t, referred.email)).access_token}` };
    const started = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/checkout',
      headers,
      payload: { space_id: space.id, tariff_id: 1, period_days: 365, provider: 'stripe' },
    });
    const [row] = await db().select().from(payments).where(eq(payments.id, started.json().payment_id));
    await stripe.pay(row!.providerPaymentId!);

    const report = (
      await t.app.inject({ method: 'GET', url: '/v1/referral', headers: partner.headers })
    ).json();
    expect(report.signups).toEqual([{ space_name: space.name, created_at: expect.any(Number), paid: true }]);
    expect(report.payments).toEqual([
      { id: row!.id, created_at: expect.any(Number), currency: 'USD', amount: 290, share: 58 },
    ]);
    expect(report.earned).toEqual({ USD: 58 });
    expect(report.available).toEqual({ USD: 58 });

    const payout = await t.app.inject({
      method: 'POST',
      url: '/v1/referral/payouts',
      headers: partner.headers,
      payload: { currency: 'usd' },
    });
    expect(payout.statusCode).toBe(200);
    expect(payout.json().available).toEqual({ USD: 0 });
    expect(payout.json().payouts).toMatchObject([{ currency: 'USD', amount: 58, state: 'requested' }]);
    const again = await t.app.inject({
      method: 'POST',
      url: '/v1/referral/payouts?locale=en',
      headers: partner.headers,
      payload: { currency: 'USD' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('Nothing to pay out in this currency');
  });
});
