import type { SlackInstallWire } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SlackEmulator, startSlackEmulator } from '../../../emulators/slack/emulator';
import { createTestApp, type TestApp } from '../../../test/harness';
import { commentEvent } from '../../../test/inbox-helpers';
import { notificationDeliveries, notificationSlack } from '../../db/schema';
import { NotificationDeliveryJob } from '../../jobs/notification-delivery';
import { readKit } from '../inbox/read/read-kit';
import { notify } from './service';
import { SLACK_SIGNATURE_MAX_AGE_S, slackApi } from './slack';

// Slack notifications (issue 18) against the Slack emulator (OAuth v2, conversations.list,
// chat.postMessage, signed Events API) on the real database: an administrator installs the app for a
// space, picks a channel, and the space's events arrive there once; rate limits wait Retry-After; a
// revoked token becomes the channel's error.

let t: TestApp;
let slack: SlackEmulator;
beforeAll(async () => {
  slack = await startSlackEmulator();
  t = await createTestApp(slack.env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  slack.eventsUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1/slack/events`;
});
afterAll(async () => {
  await t.close();
  await slack.close();
});

const { db, buildTeam, buildMember, ingestEvents, get } = readKit(() => t);

async function call<T = Record<string, unknown>>(
  headers: Record<string, string>,
  method: 'POST' | 'PUT' | 'DELETE' | 'GET',
  url: string,
  payload?: unknown,
  status = 200,
): Promise<T> {
  const res = await t.app.inject({ method, url, headers, payload: payload as Record<string, unknown> });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
  return res.json() as T;
}

const redirectUri = () => `${t.deps.config.appUrl}/callback/slack`;

/** The administrator's way through Slack's consent page: start → authorize page → Allow → code, state. */
async function consent(headers: Record<string, string>, spaceId: number) {
  const { url } = await call<{ url: string }>(
    headers,
    'GET',
    `/v1/slack/auth/start?space_id=${spaceId}&redirect_uri=${encodeURIComponent(redirectUri())}`,
  );
  const authorize = new URL(url);
  expect(authorize.origin + authorize.pathname).toBe(`${slack.url}/oauth/v2/authorize`);
  expect(authorize.searchParams.get('client_id')).toBe(slack.opts.clientId);
  expect(authorize.searchParams.get('scope')).toContain('chat:write');
  const page = await fetch(url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('slack-allow');
  const decided = await fetch(`${slack.url}/oauth/v2/decide`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      decision: 'allow',
      redirect_uri: authorize.searchParams.get('redirect_uri')!,
      state: authorize.searchParams.get('state')!,
      scope: authorize.searchParams.get('scope')!,
    }).toString(),
  });
  expect(decided.status).toBe(302);
  const back = new URL(decided.headers.get('location')!);
  expect(back.origin + back.pathname).toBe(redirectUri());
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
}

async function install(team: Awaited<ReturnType<typeof buildTeam>>, channel = 'random') {
  const { code, state } = await consent(team.headers, team.space.id);
  await call(team.headers, 'POST', '/v1/slack/auth', { code, state, redirect_uri: redirectUri() });
  const channels = await call<{ items: Array<{ id: string; name: string }> }>(
    team.headers,
    'GET',
    `/v1/slack/channels?space_id=${team.space.id}`,
  );
  const chosen = channels.items.find((c) => c.name === channel)!;
  return call<SlackInstallWire>(team.headers, 'PUT', '/v1/slack/channel', {
    space_id: team.space.id,
    channel_id: chosen.id,
  });
}

const jobFor = (spaceIds: number[]) =>
  new NotificationDeliveryJob({
    db: db(),
    log: t.deps.log,
    mailer: t.deps.mailer,
    sealer: t.deps.sealer,
    appUrl: t.deps.config.appUrl,
    spaceIds,
    slack: slackApi(t.deps.config),
  });

const slackDeliveries = (spaceId: number) =>
  db()
    .select()
    .from(notificationDeliveries)
    .where(and(eq(notificationDeliveries.spaceId, spaceId), eq(notificationDeliveries.channel, 'slack')));

describe('Slack notifications', () => {
  it('installs through OAuth v2: the code is exchanged once, the token is kept sealed and never shown', async () => {
    const team = await buildTeam();
    const before = await get<SlackInstallWire>(team.headers, `/v1/slack?space_id=${team.space.id}`);
    expect(before).toMatchObject({ configured: true, installed: false, channel_id: null });

    const { code, state } = await consent(team.headers, team.space.id);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/slack/auth',
      headers: team.headers,
      payload: { code, state, redirect_uri: redirectUri() },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ installed: true, team_name: slack.team.name, channel_id: null });
    // The bot token: exchanged with the app's secret, stored sealed, in no answer.
    const exchange = slack.calls.filter((c) => c.method === 'oauth.v2.access').at(-1)!;
    expect(exchange.params).toMatchObject({ code, redirect_uri: redirectUri() });
    const [row] = await db()
      .select()
      .from(notificationSlack)
      .where(eq(notificationSlack.spaceId, team.space.id));
    const token = [...slack.tokens.keys()].at(-1)!;
    expect(token).toMatch(/^xoxb-/);
    expect(row!.tokenSealed).not.toContain(token);
    expect(t.deps.sealer.open(row!.tokenSealed)).toBe(token);
    expect(res.body).not.toContain(token);
    expect(t.logs.join('\n')).not.toContain(token);

    // A code works once.
    const again = await t.app.inject({
      method: 'POST',
      url: '/v1/slack/auth',
      headers: team.headers,
      payload: { code, state, redirect_uri: redirectUri() },
    });
    expect(again.statusCode).toBe(502);
    expect(again.json().error).toContain('invalid_code');

    // Channels to choose from; one not in the workspace is refused.
    const channels = await call<{ items: Array<{ id: string; name: string }> }>(
      team.headers,
      'GET',
      `/v1/slack/channels?space_id=${team.space.id}`,
    );
    expect(channels.items.map((c) => c.name)).toEqual(expect.arrayContaining(['general', 'random']));
    await call(
      team.headers,
      'PUT',
      '/v1/slack/channel',
      { space_id: team.space.id, channel_id: 'C0NOPE' },
      400,
    );
    const chosen = await call<SlackInstallWire>(team.headers, 'PUT', '/v1/slack/channel', {
      space_id: team.space.id,
      channel_id: slack.channel('general').id,
    });
    expect(chosen).toMatchObject({ installed: true, channel_name: 'general', error: null });
    expect(JSON.stringify(chosen)).not.toContain('xox');
  });

  it('refuses a wrong code, a forged or foreign state, a wrong client secret and non-administrators', async () => {
    const team = await buildTeam();
    const operator = await buildMember(team.space.id, 'operator', { name: 'Oleg' });
    const { code, state } = await consent(team.headers, team.space.id);
    const post = (headers: Record<string, string>, body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/v1/slack/auth', headers, payload: body });

    const bad = await post(team.headers, { code: 'not-a-code', state, redirect_uri: redirectUri() });
    expect(bad.statusCode).toBe(502);
    expect(bad.json().error).toContain('invalid_code');
    // A state that is not ours, or another user's.
    const forged = await post(team.headers, { code, state: `${state}x`, redirect_uri: redirectUri() });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error_type).toBe('invalid_state');
    expect((await post(operator.headers, { code, state, redirect_uri: redirectUri() })).statusCode).toBe(400);
    expect((await post(team.headers, { code, state, redirect_uri: `${redirectUri()}?x=1` })).statusCode).toBe(
      400,
    );
    // Slack refused in the popup.
    expect(
      (await post(team.headers, { error: 'access_denied', state, redirect_uri: redirectUri() })).statusCode,
    ).toBe(400);
    // Nothing installed by any of it; the good code still works.
    expect(await get<SlackInstallWire>(team.headers, `/v1/slack?space_id=${team.space.id}`)).toMatchObject({
      installed: false,
    });
    await call(team.headers, 'POST', '/v1/slack/auth', { code, state, redirect_uri: redirectUri() });

    // The emulator checks the app's secret: a wrong one is refused by Slack.
    const wrong = slackApi({ ...t.deps.config, SLACK_CLIENT_SECRET: 'wrong' });
    await expect(wrong.oauthAccess(slack.authorizeCode(redirectUri()), redirectUri())).rejects.toThrow(
      'bad_client_secret',
    );
    // Operators cannot install, list or choose.
    await call(
      operator.headers,
      'GET',
      `/v1/slack/auth/start?space_id=${team.space.id}&redirect_uri=${encodeURIComponent(redirectUri())}`,
      undefined,
      403,
    );
    await call(operator.headers, 'GET', `/v1/slack/channels?space_id=${team.space.id}`, undefined, 403);
    // A callback address that is not ours.
    await call(
      team.headers,
      'GET',
      `/v1/slack/auth/start?space_id=${team.space.id}&redirect_uri=${encodeURIComponent('https://evil.example/callback/slack')}`,
      undefined,
      400,
    );
  });

  it('an assignment arrives in the chosen channel once, with whom it is for and the link', async () => {
    const team = await buildTeam();
    const anna = await buildMember(team.space.id, 'operator', { name: 'Anna' });
    await install(team, 'random');
    const job = jobFor([team.space.id]);
    const itemId = (await ingestEvents(team.sandbox, [commentEvent()])).itemIds[0]!;
    await call(team.headers, 'PUT', `/v1/items/${itemId}/assign`, { user_id: anna.user.id });
    const before = slack.messagesIn('random').length;
    const now = new Date(Date.now() + 1_000);
    expect(await job.tickSlack(now)).toBe(1);
    expect(await job.tickSlack(now)).toBe(0);
    // A second node (another job) finds nothing left either.
    expect(await jobFor([team.space.id]).tickSlack(new Date(now.getTime() + 600_000))).toBe(0);
    const sent = slack.messagesIn('random').slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain('*Owner назначает вам запись*');
    expect(sent[0]!.text).toContain('Для: Anna');
    expect(sent[0]!.text).toContain(`<${t.deps.config.appUrl}/items/${itemId}|Открыть>`);
    const posted = slack.calls.filter((c) => c.method === 'chat.postMessage').at(-1)!;
    expect(posted.params.channel).toBe(slack.channel('random').id);
    expect(posted.token).toMatch(/^xoxb-/);

    // One event for several members is one message naming them all.
    const boris = await buildMember(team.space.id, 'operator', { name: 'Boris <b>' });
    await notify(
      { db: db(), bus: t.deps.bus },
      {
        spaceId: team.space.id,
        userIds: [anna.user.id, boris.user.id],
        event: 'account_error',
        content: () => ({ title: 'Ошибка аккаунта «Кофейня»', text: 'token revoked & more' }),
      },
    );
    expect(await job.tickSlack(new Date(Date.now() + 1_000))).toBe(1);
    const last = slack.messagesIn('random').at(-1)!;
    expect(last.text).toContain('Для: Anna, Boris &lt;b&gt;');
    expect(last.text).toContain('token revoked &amp; more');

    // A member who switched Slack off is not named; nobody left: no message.
    await call(anna.headers, 'PUT', '/v1/notifications/subscriptions', {
      space_id: team.space.id,
      items: [{ event: 'assigned', channel: 'slack', frequency: 'never' }],
    });
    const other = (await ingestEvents(team.sandbox, [commentEvent()])).itemIds[0]!;
    await call(team.headers, 'PUT', `/v1/items/${other}/assign`, { user_id: anna.user.id });
    expect(await job.tickSlack(new Date(Date.now() + 1_000))).toBe(0);
  });

  it('ratelimited: the message waits Slack’s Retry-After and then goes once', async () => {
    const team = await buildTeam();
    const anna = await buildMember(team.space.id, 'operator', { name: 'Anna' });
    await install(team, 'general');
    const job = jobFor([team.space.id]);
    const itemId = (await ingestEvents(team.sandbox, [commentEvent()])).itemIds[0]!;
    await call(team.headers, 'PUT', `/v1/items/${itemId}/assign`, { user_id: anna.user.id });
    slack.failNext('chat.postMessage', 'ratelimited', 7);
    const before = slack.messagesIn('general').length;
    const now = new Date(Date.now() + 1_000);
    expect(await job.tickSlack(now)).toBe(0);
    const [waiting] = await slackDeliveries(team.space.id);
    expect(waiting).toMatchObject({ state: 'pending', attempts: 1, lastError: 'ratelimited' });
    expect(waiting!.dueAt.getTime()).toBe(now.getTime() + 7_000);
    expect(await job.tickSlack(new Date(now.getTime() + 6_000))).toBe(0);
    expect(await job.tickSlack(new Date(now.getTime() + 7_000))).toBe(1);
    expect(slack.messagesIn('general').length).toBe(before + 1);
    expect((await slackDeliveries(team.space.id))[0]).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it('a revoked token is the channel’s error: settings and the members’ channel health show it', async () => {
    const team = await buildTeam();
    const anna = await buildMember(team.space.id, 'operator', { name: 'Anna' });
    await install(team, 'general');
    const job = jobFor([team.space.id]);
    const itemId = (await ingestEvents(team.sandbox, [commentEvent()])).itemIds[0]!;
    await call(team.headers, 'PUT', `/v1/items/${itemId}/assign`, { user_id: anna.user.id });
    // The workspace's admin revokes the app's token at Slack.
    const [row] = await db()
      .select()
      .from(notificationSlack)
      .where(eq(notificationSlack.spaceId, team.space.id));
    slack.tokens.get(t.deps.sealer.open(row!.tokenSealed))!.revoked = true;
    expect(await job.tickSlack(new Date(Date.now() + 1_000))).toBe(0);
    expect((await slackDeliveries(team.space.id))[0]).toMatchObject({
      state: 'failed',
      lastError: 'token_revoked',
    });
    expect(await get<SlackInstallWire>(team.headers, `/v1/slack?space_id=${team.space.id}`)).toMatchObject({
      installed: true,
      error: 'token_revoked',
    });
    const health = await get<{ slack: Array<{ space_id: number; error: string }> }>(
      anna.headers,
      '/v1/notifications/channels',
    );
    expect(health.slack).toEqual([
      expect.objectContaining({ space_id: team.space.id, error: 'token_revoked' }),
    ]);
    // Nothing more is queued for the broken channel.
    const other = (await ingestEvents(team.sandbox, [commentEvent()])).itemIds[0]!;
    await call(team.headers, 'PUT', `/v1/items/${other}/assign`, { user_id: anna.user.id });
    expect(await slackDeliveries(team.space.id)).toHaveLength(1);
    // Installing again mends it.
    await install(team, 'general');
    expect(await get<SlackInstallWire>(team.headers, `/v1/slack?space_id=${team.space.id}`)).toMatchObject({
      error: null,
      channel_name: 'general',
    });
    // Removing revokes the token at Slack.
    await call(team.headers, 'DELETE', `/v1/slack?space_id=${team.space.id}`);
    expect(slack.calls.at(-1)!.method).toBe('auth.revoke');
    expect(await get<SlackInstallWire>(team.headers, `/v1/slack?space_id=${team.space.id}`)).toMatchObject({
      installed: false,
    });
  });

  it('Slack’s signed events: app_uninstalled breaks the install; bad or stale signatures are refused', async () => {
    const team = await buildTeam();
    await install(team, 'general');
    const body = JSON.stringify({ type: 'url_verification', challenge: 'abc123' });
    const verify = await fetch(slack.eventsUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...slack.sign(body) },
      body,
    });
    expect(await verify.json()).toEqual({ challenge: 'abc123' });
    // Wrong secret, too old, none at all.
    const forged = await slack.sendEvent({ type: 'app_uninstalled' }, (b) =>
      slack.sign(b, undefined, 'other-secret'),
    );
    expect(forged.status).toBe(401);
    const stale = Math.floor(Date.now() / 1000) - SLACK_SIGNATURE_MAX_AGE_S - 10;
    expect((await slack.sendEvent({ type: 'app_uninstalled' }, (b) => slack.sign(b, stale))).status).toBe(
      401,
    );
    expect(await get<SlackInstallWire>(team.headers, `/v1/slack?space_id=${team.space.id}`)).toMatchObject({
      error: null,
    });
    const gone = await slack.uninstall();
    expect(gone.status).toBe(200);
    expect(await get<SlackInstallWire>(team.headers, `/v1/slack?space_id=${team.space.id}`)).toMatchObject({
      error: 'app_uninstalled',
    });
  });
});
