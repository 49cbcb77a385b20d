import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildWorkspace } from '../../../test/inbox-actions';
import { items, objects } from '../../db/schema';
import { CHECK_TTL_S, type PulseCheckPayload, signPulseCheck } from './check';

// Pulse sign-in (SPEC §7 POST v1/tpulse/check_auth {check}) on a real database: our sealed state goes to
// Pulse's page, the signed check comes back and connects the profile as an ingest-token account whose
// generic ingestion path keeps working.

const SECRET = 'pulse-partner-secret-0123456789';
let t: TestApp;
let admin: Awaited<ReturnType<typeof buildWorkspace>>;

beforeAll(async () => {
  t = await createTestApp({ TPULSE_CHECK_SECRET: SECRET });
  admin = await buildWorkspace(t);
});
afterAll(() => t.close());

const redirectUri = () => `${t.deps.config.appUrl}/callback/tpulse`;

async function startState(headers: Record<string, string>, spaceId: number) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/tpulse/auth/start?space_id=${spaceId}&redirect_uri=${encodeURIComponent(redirectUri())}`,
    headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  const url = new URL(res.json().url);
  expect(url.origin + url.pathname).toBe(t.deps.config.TPULSE_AUTH_URL);
  expect(url.searchParams.get('redirect_uri')).toBe(redirectUri());
  return url.searchParams.get('state')!;
}

const payload = (state: string, extra: Partial<PulseCheckPayload> = {}): PulseCheckPayload => ({
  profile_id: `p-${Math.random().toString(36).slice(2)}`,
  nickname: 'otklik_invest',
  name: 'Otklik Invest',
  state,
  auth_date: Math.floor(Date.now() / 1000),
  ...extra,
});

const checkAuth = (check: string, headers = admin.headers) =>
  t.app.inject({ method: 'POST', url: '/v1/tpulse/check_auth', headers, payload: { check } });

const accountsOf = (spaceId: number) =>
  t.deps.database.db
    .select()
    .from(objects)
    .where(and(eq(objects.spaceId, spaceId), eq(objects.provider, 'tpulse')));

describe('POST /v1/tpulse/check_auth', () => {
  it('offers the sign-in when the partner secret is set', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/providers/connectable',
      headers: admin.headers,
    });
    expect(res.json().items.find((p: { id: string }) => p.id === 'tpulse')).toMatchObject({
      connect: 'ingest_token',
      oauth: true,
    });
  });

  it('connects the profile that signed in, whose collector then ingests with the token shown once', async () => {
    const p = payload(await startState(admin.headers, admin.space.id));
    const res = await checkAuth(signPulseCheck(SECRET, p));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'ok', source: 'tpulse', existing: false });
    expect(body.object).toMatchObject({
      provider: 'tpulse',
      name: 'Otklik Invest',
      screen_name: 'otklik_invest',
    });
    expect(body.ingest_token).toMatch(/^otk_/);
    const [row] = await t.deps.database.db.select().from(objects).where(eq(objects.id, body.object.id));
    expect(row).toMatchObject({ spaceId: admin.space.id, externalId: p.profile_id });

    // The generic ingestion path of Pulse keeps working for the signed-in account.
    const ingest = await t.app.inject({
      method: 'POST',
      url: '/v1/ingest/items',
      headers: { authorization: `Bearer ${body.ingest_token}` },
      payload: {
        items: [
          {
            external_id: 'pulse-c-1',
            kind: 'comment',
            text: 'Когда дивиденды?',
            author: { id: 'investor-9', name: 'Инвестор' },
            created_at: new Date().toISOString(),
          },
        ],
      },
    });
    expect(ingest.statusCode, ingest.body).toBe(200);
    expect(ingest.json()).toMatchObject({ created: 1, duplicates: 0 });
    const stored = await t.deps.database.db.select().from(items).where(eq(items.objectId, body.object.id));
    expect(stored.map((i) => i.text)).toEqual(['Когда дивиденды?']);

    // The same profile signing in again gets its account as it stands, not a second one nor a new token.
    const again = await checkAuth(
      signPulseCheck(SECRET, { ...p, state: await startState(admin.headers, admin.space.id) }),
    );
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ existing: true, object: { id: body.object.id } });
    expect(again.json().ingest_token).toBeUndefined();
    expect((await accountsOf(admin.space.id)).filter((o) => o.externalId === p.profile_id)).toHaveLength(1);
  });

  it('refuses a forged, altered or stale check and connects nothing', async () => {
    const before = (await accountsOf(admin.space.id)).length;
    const state = await startState(admin.headers, admin.space.id);
    const good = signPulseCheck(SECRET, payload(state));
    const [body, sig] = good.split('.') as [string, string];
    const altered = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(body, 'base64url').toString()),
        profile_id: 'someone-else',
      }),
    ).toString('base64url');
    for (const check of [
      signPulseCheck('another-partner-secret-000000', payload(state)),
      `${altered}.${sig}`,
      `${body}.${'0'.repeat(64)}`,
      'not-a-check',
      signPulseCheck(SECRET, payload(state, { auth_date: Math.floor(Date.now() / 1000) - CHECK_TTL_S - 5 })),
    ]) {
      const res = await checkAuth(check);
      expect(res.statusCode, check).toBe(400);
      expect(res.json()).toMatchObject({ error_type: 'invalid_check' });
    }
    const ru = await t.app.inject({
      method: 'POST',
      url: '/v1/tpulse/check_auth',
      headers: { ...admin.headers, 'accept-language': 'ru' },
      payload: { check: 'not-a-check' },
    });
    expect(ru.json().error).toContain('Пульс не подтвердил вход');
    expect(await accountsOf(admin.space.id)).toHaveLength(before);
  });

  it("refuses a check carrying another user's state, or a state we never sealed", async () => {
    const other = await buildWorkspace(t);
    const theirs = await startState(other.headers, other.space.id);
    const res = await checkAuth(signPulseCheck(SECRET, payload(theirs)));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error_type: 'invalid_state' });
    expect(await accountsOf(other.space.id)).toHaveLength(0);

    const unsealed = await checkAuth(signPulseCheck(SECRET, payload('made-up-state')));
    expect(unsealed.json()).toMatchObject({ error_type: 'invalid_state' });
  });

  it('without the partner secret: no sign-in offered, every check refused, ingestion as before', async () => {
    const plain = await createTestApp({ TPULSE_CHECK_SECRET: '' });
    try {
      const other = await buildWorkspace(plain);
      const offered = await plain.app.inject({ url: '/v1/providers/connectable', headers: other.headers });
      expect(offered.json().items.find((p: { id: string }) => p.id === 'tpulse')).toMatchObject({
        connect: 'ingest_token',
        oauth: false,
      });
      const res = await plain.app.inject({
        method: 'POST',
        url: '/v1/tpulse/check_auth',
        headers: other.headers,
        payload: { check: signPulseCheck(SECRET, payload('any-state')) },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error_type: 'invalid_check' });
      const byToken = await plain.app.inject({
        method: 'POST',
        url: '/v1/objects',
        headers: other.headers,
        payload: { provider: 'tpulse' },
      });
      expect(byToken.statusCode, byToken.body).toBe(200);
      expect(byToken.json().ingest_token).toMatch(/^otk_/);
    } finally {
      await plain.close();
    }
  });
});
