import { createHash, randomBytes } from 'node:crypto';
import { OAUTH_CODE_TTL_S, presetFor } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { auditLog } from '../../db/schema';
import { addMember } from '../spaces/service';
import { buildAdmin, buildMember } from '../users/testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => {
  vi.useRealTimers();
});

type Headers = Record<string, string>;
const REDIRECT = 'http://127.0.0.1:9/callback';

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
};

async function registerApp(headers: Headers, spaceId: number, redirectUris = [REDIRECT]) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/oauth/apps',
    headers,
    payload: { space_id: spaceId, name: 'CRM Connector', redirect_uris: redirectUris },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; client_id: string; client_secret: string };
}

function authorizeQuery(clientId: string, challenge: string, extra: Record<string, string> = {}) {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'xyz-state',
    ...extra,
  };
}

/** The user approves on the consent screen; returns the code from the redirect. */
async function approve(headers: Headers, clientId: string, challenge: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/oauth/authorize',
    headers,
    payload: { ...authorizeQuery(clientId, challenge), decision: 'allow' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const to = new URL(res.json().redirect_to);
  expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
  expect(to.searchParams.get('state')).toBe('xyz-state');
  return to.searchParams.get('code')!;
}

function exchange(payload: Record<string, string>, headers: Headers = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(payload).toString(),
  });
}

const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
});

/** Admin with an app, a fresh PKCE pair and an approved code. */
async function setup() {
  const admin = await buildAdmin(t);
  const app = await registerApp(admin.headers, admin.space.id);
  const { verifier, challenge } = pkce();
  const code = await approve(admin.headers, app.client_id, challenge);
  return { admin, app, verifier, challenge, code };
}

const codeGrant = (
  app: { client_id: string; client_secret: string },
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
) => ({
  grant_type: 'authorization_code',
  client_id: app.client_id,
  client_secret: app.client_secret,
  code,
  redirect_uri: REDIRECT,
  code_verifier: verifier,
  ...extra,
});

describe('third-party apps — authorization code + PKCE', () => {
  it('full flow: consent → code → tokens acting as the user in the app space → refresh', async () => {
    const { admin, app, verifier, code } = await setup();
    const res = await exchange(codeGrant(app, code, verifier));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const tokens = res.json();
    expect(tokens.token_type).toBe('Bearer');
    const me = await t.app.inject({
      url: '/v1/me',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().id ?? me.json().user?.id).toBe(admin.user.id);

    // Refresh with rotation for the app (client authenticated again).
    const refreshed = await exchange({
      grant_type: 'refresh_token',
      client_id: app.client_id,
      client_secret: app.client_secret,
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const config = await t.app.inject({
      url: '/v1/config',
      headers: { authorization: `Bearer ${refreshed.json().access_token}` },
    });
    expect(config.statusCode).toBe(200);
    expect(config.json().spaces.map((s: { id: number }) => s.id)).toEqual([admin.space.id]);

    // The app's list shows its last use and one active user; never a secret.
    const list = await t.app.inject({ url: '/v1/oauth/apps', headers: admin.headers });
    const item = list.json().items.find((x: { id: number }) => x.id === app.id);
    expect(item.active_users).toBe(1);
    expect(item.last_used_at).not.toBeNull();
    expect(list.body).not.toContain(app.client_secret);
    // The web app's refresh path refuses the app's refresh token (client mismatch).
    const grants = await t.app.inject({ url: '/v1/oauth/grants', headers: admin.headers });
    expect(grants.json().items.map((g: { app_id: number }) => g.app_id)).toEqual([app.id]);
  });

  it('wrong verifier → invalid_grant, and the code is burnt', async () => {
    const { app, verifier, code } = await setup();
    const wrong = await exchange(codeGrant(app, code, pkce().verifier));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'invalid_grant' });
    expect(typeof wrong.json().error_description).toBe('string');
    const again = await exchange(codeGrant(app, code, verifier));
    expect(again.json().error).toBe('invalid_grant');
  });

  it('a reused code → invalid_grant and the tokens issued for it are revoked', async () => {
    const { app, verifier, code } = await setup();
    const first = await exchange(codeGrant(app, code, verifier));
    expect(first.statusCode).toBe(200);
    const reuse = await exchange(codeGrant(app, code, verifier));
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error).toBe('invalid_grant');
    const me = await t.app.inject({
      url: '/v1/me',
      headers: { authorization: `Bearer ${first.json().access_token}` },
    });
    expect(me.statusCode).toBe(401);
  });

  it('a redirect_uri other than the one in the request → invalid_grant', async () => {
    const admin = await buildAdmin(t);
    const app = await registerApp(admin.headers, admin.space.id, [REDIRECT, 'https://crm.example/cb']);
    const { verifier, challenge } = pkce();
    const code = await approve(admin.headers, app.client_id, challenge);
    const res = await exchange(codeGrant(app, code, verifier, { redirect_uri: 'https://crm.example/cb' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_grant');
  });

  it('an expired code (clock moved past the lifetime) → invalid_grant', async () => {
    const { app, verifier, code } = await setup();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (OAUTH_CODE_TTL_S + 1) * 1000);
    const res = await exchange(codeGrant(app, code, verifier));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_grant');
  });

  it('client authentication: HTTP Basic works; a wrong secret is 401 invalid_client with WWW-Authenticate', async () => {
    const { app, verifier, code } = await setup();
    const { client_id: _id, client_secret: _secret, ...rest } = codeGrant(app, code, verifier);
    const wrong = await exchange(rest, basic(app.client_id, 'not-the-secret'));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('invalid_client');
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic/);
    const ok = await exchange(rest, basic(app.client_id, app.client_secret));
    expect(ok.statusCode, ok.body).toBe(200);
    // Another app's secret for this app's code: invalid_client; this app's code at another app: invalid_grant.
    const admin2 = await buildAdmin(t);
    const other = await registerApp(admin2.headers, admin2.space.id);
    const p = pkce();
    const code2 = await approve(admin2.headers, other.client_id, p.challenge);
    const mixed = await exchange(codeGrant(app, code2, p.verifier));
    expect(mixed.json().error).toBe('invalid_grant');
  });

  it('consent errors: unknown client / unregistered redirect are errors, never redirects; deny → access_denied', async () => {
    const admin = await buildAdmin(t);
    const app = await registerApp(admin.headers, admin.space.id);
    const { challenge } = pkce();
    const get = (query: Record<string, string>) =>
      t.app.inject({ url: `/v1/oauth/authorize?${new URLSearchParams(query)}`, headers: admin.headers });
    const ok = await get(authorizeQuery(app.client_id, challenge));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ app: { name: 'CRM Connector' }, space: { id: admin.space.id } });
    const unknown = await get(authorizeQuery('app_nope', challenge));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().redirect_to).toBeUndefined();
    const evil = await get(
      authorizeQuery(app.client_id, challenge, { redirect_uri: 'https://evil.example/cb' }),
    );
    expect(evil.statusCode).toBe(400);
    expect(evil.json().error_type).toBe('invalid_redirect_uri');
    // Missing PKCE → the error goes back to the registered redirect URI.
    const plain = await get(authorizeQuery(app.client_id, challenge, { code_challenge_method: 'plain' }));
    const back = new URL(plain.json().redirect_to);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('state')).toBe('xyz-state');

    const denied = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth/authorize',
      headers: admin.headers,
      payload: { ...authorizeQuery(app.client_id, challenge), decision: 'deny' },
    });
    const deniedTo = new URL(denied.json().redirect_to);
    expect(deniedTo.searchParams.get('error')).toBe('access_denied');
    expect(deniedTo.searchParams.get('code')).toBeNull();

    // A user outside the app's space cannot grant it.
    const stranger = await buildAdmin(t);
    const refused = await t.app.inject({
      url: `/v1/oauth/authorize?${new URLSearchParams(authorizeQuery(app.client_id, challenge))}`,
      headers: stranger.headers,
    });
    expect(refused.statusCode).toBe(403);
  });

  it('tokens carry the user role in the app space only; app tokens cannot manage apps or credentials', async () => {
    const admin = await buildAdmin(t);
    const app = await registerApp(admin.headers, admin.space.id);
    const operator = await buildMember(t, admin.space.id, 'operator');
    // The operator is also an administrator of a space of their own.
    const own = await buildAdmin(t);
    await addMember(t.deps.database.db, own.space.id, operator.user.id, presetFor('administrator'));
    const { verifier, challenge } = pkce();
    const code = await approve(operator.headers, app.client_id, challenge);
    const tokens = (await exchange(codeGrant(app, code, verifier))).json();
    const h = { authorization: `Bearer ${tokens.access_token}` };
    const config = (await t.app.inject({ url: '/v1/config', headers: h })).json();
    expect(config.spaces.map((s: { id: number }) => s.id)).toEqual([admin.space.id]);
    // Operator in the app's space: no oauth.manage; and no apps endpoints at all for an app token.
    for (const [method, url] of [
      ['GET', '/v1/oauth/apps'],
      ['GET', '/v1/oauth/grants'],
      ['GET', '/v1/me/deleterequest'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: h, payload: {} });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });
});

describe('third-party apps — management and revocation', () => {
  it('admin only: an operator gets 403; another space admin gets 404 and sees none', async () => {
    const admin = await buildAdmin(t);
    const app = await registerApp(admin.headers, admin.space.id);
    const operator = await buildMember(t, admin.space.id, 'operator');
    const create = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      headers: operator.headers,
      payload: { space_id: admin.space.id, name: 'X', redirect_uris: [REDIRECT] },
    });
    expect(create.statusCode).toBe(403);
    const opList = await t.app.inject({ url: '/v1/oauth/apps', headers: operator.headers });
    expect(opList.json().items).toEqual([]);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/oauth/apps/${app.id}`, headers: operator.headers }))
        .statusCode,
    ).toBe(403);

    const stranger = await buildAdmin(t);
    for (const [method, url] of [
      ['PUT', `/v1/oauth/apps/${app.id}`],
      ['POST', `/v1/oauth/apps/${app.id}/secret`],
      ['DELETE', `/v1/oauth/apps/${app.id}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: stranger.headers, payload: { name: 'Mine' } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const strangerList = await t.app.inject({ url: '/v1/oauth/apps', headers: stranger.headers });
    expect(strangerList.json().items).toEqual([]);
    const foreignCreate = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth/apps',
      headers: stranger.headers,
      payload: { space_id: admin.space.id, name: 'X', redirect_uris: [REDIRECT] },
    });
    expect(foreignCreate.statusCode).toBe(403);
  });

  it('redirect URIs must be https or loopback http, without fragments', async () => {
    const admin = await buildAdmin(t);
    for (const uri of [
      'http://crm.example/cb',
      'https://crm.example/cb#x',
      'javascript:alert(1)',
      'ftp://x',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/oauth/apps?locale=en',
        headers: admin.headers,
        payload: { space_id: admin.space.id, name: 'X', redirect_uris: [uri] },
      });
      expect(res.statusCode, uri).toBe(400);
    }
    await registerApp(admin.headers, admin.space.id, ['http://localhost:8080/cb', 'https://crm.example/cb']);
  });

  it('edit, regenerate the secret (old one stops), the secret appears only in its own answers and never in logs', async () => {
    const admin = await buildAdmin(t);
    const app = await registerApp(admin.headers, admin.space.id);
    const patched = await t.app.inject({
      method: 'PUT',
      url: `/v1/oauth/apps/${app.id}`,
      headers: admin.headers,
      payload: { name: 'CRM 2', redirect_uris: [REDIRECT, 'https://crm.example/cb'] },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      name: 'CRM 2',
      redirect_uris: [REDIRECT, 'https://crm.example/cb'],
    });
    expect(patched.body).not.toContain(app.client_secret);
    const regen = await t.app.inject({
      method: 'POST',
      url: `/v1/oauth/apps/${app.id}/secret`,
      headers: admin.headers,
    });
    const fresh = regen.json().client_secret as string;
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(app.client_secret);

    const { verifier, challenge } = pkce();
    const code = await approve(admin.headers, app.client_id, challenge);
    const old = await exchange(codeGrant(app, code, verifier));
    expect(old.json().error).toBe('invalid_client');
    const ok = await exchange(codeGrant({ ...app, client_secret: fresh }, code, verifier));
    expect(ok.statusCode, ok.body).toBe(200);

    const list = await t.app.inject({ url: '/v1/oauth/apps', headers: admin.headers });
    expect(list.body).not.toContain(fresh);
    const logs = t.logs.join('\n');
    expect(logs).not.toContain(fresh);
    expect(logs).not.toContain(app.client_secret);
    // The action log has the app's registration, change and new secret — never a secret itself.
    const entries = await t.deps.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'oauth_app'), eq(auditLog.targetId, String(app.id))));
    expect(entries.map((e) => e.kind).sort()).toEqual([
      'oauth_app.created',
      'oauth_app.secret',
      'oauth_app.updated',
    ]);
    expect(entries.every((e) => e.actorId === admin.user.id)).toBe(true);
    expect(JSON.stringify(entries)).not.toContain(fresh);
    expect(JSON.stringify(entries)).not.toContain(app.client_secret);
  });

  it('the user revokes a grant: the token fails at once and the app disappears from their list', async () => {
    const { admin, app, verifier, code } = await setup();
    const tokens = (await exchange(codeGrant(app, code, verifier))).json();
    const h = { authorization: `Bearer ${tokens.access_token}` };
    expect((await t.app.inject({ url: '/v1/me', headers: h })).statusCode).toBe(200);
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/v1/oauth/grants/${app.id}`,
      headers: admin.headers,
    });
    expect(revoked.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/me', headers: h })).statusCode).toBe(401);
    const refresh = await exchange({
      grant_type: 'refresh_token',
      client_id: app.client_id,
      client_secret: app.client_secret,
      refresh_token: tokens.refresh_token,
    });
    expect(refresh.json().error).toBe('invalid_grant');
    const grants = await t.app.inject({ url: '/v1/oauth/grants', headers: admin.headers });
    expect(grants.json().items).toEqual([]);
    // The web app's own session was untouched.
    expect((await t.app.inject({ url: '/v1/me', headers: admin.headers })).statusCode).toBe(200);
  });

  it('RFC 7009: the app revokes its own token with its credentials', async () => {
    const { app, verifier, code } = await setup();
    const tokens = (await exchange(codeGrant(app, code, verifier))).json();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/revoke',
      headers: basic(app.client_id, app.client_secret),
      payload: { token: tokens.refresh_token },
    });
    expect(res.statusCode, res.body).toBe(200);
    const me = await t.app.inject({
      url: '/v1/me',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.statusCode).toBe(401);
  });

  it("deleting an app ends every user's tokens of it at once", async () => {
    const { admin, app, verifier, code } = await setup();
    const member = await buildMember(t, admin.space.id, 'operator');
    const p = pkce();
    const code2 = await approve(member.headers, app.client_id, p.challenge);
    const a = (await exchange(codeGrant(app, code, verifier))).json();
    const b = (await exchange(codeGrant(app, code2, p.verifier))).json();
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/v1/oauth/apps/${app.id}`,
      headers: admin.headers,
    });
    expect(del.statusCode).toBe(200);
    for (const tok of [a, b]) {
      const me = await t.app.inject({
        url: '/v1/me',
        headers: { authorization: `Bearer ${tok.access_token}` },
      });
      expect(me.statusCode).toBe(401);
    }
    const refresh = await exchange({
      grant_type: 'refresh_token',
      client_id: app.client_id,
      client_secret: app.client_secret,
      refresh_token: a.refresh_token,
    });
    expect(refresh.statusCode).toBe(401);
    expect(refresh.json().error).toBe('invalid_client');
  });
});
