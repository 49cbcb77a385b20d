import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvitoTestbed } from '../../../test/providers/avito';
import { objects } from '../../db/schema';
import { openCredentials } from '../context';

// Issue 13 #15: Avito connects by OAuth as SPEC routes say — GET v1/avito/auth/start gives Avito's
// consent page, the popup (/callback/avito) brings the code back, POST v1/avito/auth exchanges it
// (grant_type=authorization_code) and the account works on refresh_token grants from then on.

const APP_ID = 'otklik-app';
const APP_SECRET = 'otklik-app-secret';

let bed: AvitoTestbed;
beforeAll(async () => {
  bed = new AvitoTestbed({ AVITO_CLIENT_ID: APP_ID, AVITO_CLIENT_SECRET: APP_SECRET });
  // The consent page lives on the emulator too (AVITO_OAUTH_URL).
  await bed.start();
  bed.t.deps.config.AVITO_OAUTH_URL = `${bed.emu.url}/oauth`;
  bed.emu.network.addClient(APP_ID, APP_SECRET, { userId: 1, name: 'Otklik app' });
});
afterAll(() => bed.close());

const redirectUri = () => `${bed.t.deps.config.appUrl}/callback/avito`;

/** What the popup does: open Avito's page, and come back with what Avito put in the address. */
async function popup() {
  const start = await bed.t.app.inject({
    url: `/v1/avito/auth/start?redirect_uri=${encodeURIComponent(redirectUri())}`,
    headers: bed.headers,
  });
  expect(start.statusCode, start.body).toBe(200);
  const page = new URL(start.json().url as string);
  expect(page.searchParams.get('response_type')).toBe('code');
  expect(page.searchParams.get('client_id')).toBe(APP_ID);
  expect(page.searchParams.get('scope')).toContain('messenger:read');
  const answer = await fetch(page, { redirect: 'manual' });
  const back = new URL(answer.headers.get('location')!);
  return Object.fromEntries(back.searchParams);
}

describe('Avito OAuth connect', () => {
  it('connects the account that agreed; keeps only its refresh token; later calls refresh', async () => {
    bed.emu.network.consenting = { userId: 55_000_001, name: 'Мебельный салон' };
    const back = await popup();
    expect(back.code).toBeTruthy();
    const res = await bed.t.app.inject({
      method: 'POST',
      url: '/v1/avito/auth',
      headers: bed.headers,
      payload: { code: back.code, state: back.state, redirect_uri: redirectUri() },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', source: 'avito', object: { name: 'Мебельный салон' } });
    const [row] = await bed.db().select().from(objects).where(eq(objects.id, res.json().object.id));
    expect(row?.externalId).toBe('55000001');
    const stored = openCredentials(bed.t.deps.sealer, row!);
    expect(Object.keys(stored).sort()).toEqual(['refresh_token', 'user_id', 'webhook_secret']);
    expect(JSON.stringify(res.json())).not.toContain(stored.refresh_token);
    const grants = bed.emu.calls.filter((c) => c.path === '/token').map((c) => c.body?.grant_type);
    expect(grants).toContain('authorization_code');
    expect(grants).toContain('refresh_token');
    // The code is spent: the same popup answer cannot connect twice.
    const again = await bed.t.app.inject({
      method: 'POST',
      url: '/v1/avito/auth',
      headers: bed.headers,
      payload: { code: back.code, state: back.state, redirect_uri: redirectUri() },
    });
    expect(again.statusCode).toBe(400);
  });

  it('a refused consent comes back as a translated error', async () => {
    bed.emu.network.consenting = null;
    const back = await popup();
    expect(back.error).toBe('access_denied');
    const res = await bed.t.app.inject({
      method: 'POST',
      url: '/v1/avito/auth',
      headers: bed.headers,
      payload: { error: back.error, state: back.state, redirect_uri: redirectUri() },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_type).toBe('access_denied');
    expect(res.json().error).not.toMatch(/access_denied/);
  });
});
