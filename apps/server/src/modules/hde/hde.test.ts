import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HdeEmulator, startHdeEmulator } from '../../../emulators/hde/emulator';
import { createTestApp, type TestApp } from '../../../test/harness';
import { commentEvent, messageEvent } from '../../../test/inbox-helpers';
import { chats, hdeIntegrations, hdeTickets } from '../../db/schema';
import { HdeSyncJob } from '../../jobs/hde-sync';
import { readKit } from '../inbox/read/read-kit';
import { syncStatuses } from './service';

// HelpDeskEddy (issue 21): per-space connection with a sealed key, tickets from items and chats
// against the emulator, the status sync, scoping and translated failures.

let t: TestApp;
let hde: HdeEmulator;
beforeAll(async () => {
  t = await createTestApp({ HDE_ALLOW_PRIVATE: 'true' });
  hde = await startHdeEmulator();
});
afterAll(async () => {
  await hde.close();
  await t.close();
});

const { db, buildTeam, ingestEvents, get } = readKit(() => t);

async function call(
  headers: Record<string, string>,
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  status = 200,
) {
  const res = await t.app.inject({ method, url, headers, payload: payload as Record<string, unknown> });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
  return res.json();
}

async function connect(team: Awaited<ReturnType<typeof buildTeam>>, apiKey = hde.apiKey) {
  const { integration } = await call(team.headers, 'POST', '/v1/hde', {
    space_id: team.space.id,
    domain: hde.url,
    email: hde.email,
    api_key: apiKey,
  });
  return integration as { id: number };
}

describe('HelpDeskEddy', () => {
  it('stores the key sealed, never returns it, and checks the connection', async () => {
    const team = await buildTeam();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/hde',
      headers: team.headers,
      payload: { space_id: team.space.id, domain: hde.url, email: hde.email, api_key: hde.apiKey },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(hde.apiKey);
    const { integration } = res.json();
    expect(integration).toMatchObject({
      domain: hde.url,
      email: hde.email,
      has_api_key: true,
      last_check: null,
    });

    const [row] = await db().select().from(hdeIntegrations).where(eq(hdeIntegrations.id, integration.id));
    expect(row!.apiKeySealed).not.toContain(hde.apiKey);
    expect(row!.apiKeySealed.startsWith('v1.')).toBe(true);
    expect(t.deps.sealer.open(row!.apiKeySealed)).toBe(hde.apiKey);

    for (const body of [
      JSON.stringify(await get(team.headers, `/v1/hde/${integration.id}`)),
      JSON.stringify(await get(team.headers, `/v1/hde?space_id=${team.space.id}`)),
    ])
      expect(body).not.toContain(hde.apiKey);

    const tested = await call(team.headers, 'POST', `/v1/hde/${integration.id}/test`);
    expect(tested.integration.last_check).toBe('ok');

    // A blank key on update keeps the stored one; a new one replaces it (still sealed).
    await call(team.headers, 'PUT', `/v1/hde/${integration.id}`, { email: hde.email, api_key: '' });
    expect((await call(team.headers, 'POST', `/v1/hde/${integration.id}/test`)).integration.last_check).toBe(
      'ok',
    );
    expect(t.logs.join('')).not.toContain(hde.apiKey);
  });

  it('a wrong key or an unreachable address is a translated error, remembered on the connection', async () => {
    const team = await buildTeam();
    const integration = await connect(team, 'wrong-key');
    const en = await t.app.inject({
      method: 'POST',
      url: `/v1/hde/${integration.id}/test?locale=en`,
      headers: team.headers,
    });
    expect(en.statusCode).toBe(502);
    expect(en.json()).toMatchObject({
      error: 'HelpDeskEddy did not accept the email or the API key',
      error_type: 'hde_auth',
    });
    const ru = await t.app.inject({
      method: 'POST',
      url: `/v1/hde/${integration.id}/test?locale=ru`,
      headers: team.headers,
    });
    expect(ru.json().error).toBe('HelpDeskEddy не принял эл. почту или ключ API');
    expect(
      (await get<{ integration: { last_check: string } }>(team.headers, `/v1/hde/${integration.id}`))
        .integration.last_check,
    ).toBe('auth');

    await call(team.headers, 'PUT', `/v1/hde/${integration.id}`, {
      domain: 'http://127.0.0.1:1',
      api_key: hde.apiKey,
    });
    const down = await t.app.inject({
      method: 'POST',
      url: `/v1/hde/${integration.id}/test?locale=en`,
      headers: team.headers,
    });
    expect(down.json()).toMatchObject({
      error: 'HelpDeskEddy does not answer at this address',
      error_type: 'hde_unreachable',
    });
  });

  it('creates a ticket from an item and from a chat with the text and the author, and syncs its status back', async () => {
    const team = await buildTeam();
    const integration = await connect(team);
    const created = await ingestEvents(team.sandbox, [
      commentEvent({
        text: 'My parcel never arrived',
        author: { externalId: 'u-77', name: 'Olga Petrova', screenName: 'olga_p' },
      }),
    ]);
    const itemId = created.itemIds[0]!;

    const before = await get<{ tickets: unknown[]; integration_id: number }>(
      team.headers,
      `/v1/items/${itemId}/hde-tickets`,
    );
    expect(before).toEqual({ tickets: [], integration_id: integration.id });

    const { ticket } = await call(team.headers, 'POST', `/v1/items/${itemId}/hde-tickets`, {});
    const sent = hde.tickets.at(-1)!;
    expect(sent).toMatchObject({
      title: 'My parcel never arrived',
      user_name: 'Olga Petrova',
      status_id: 'open',
    });
    expect(sent.description).toContain('My parcel never arrived');
    expect(sent.description).toContain('@olga_p');
    expect(ticket).toMatchObject({
      ticket_id: String(sent.id),
      status: 'open',
      integration_id: integration.id,
    });
    expect(ticket.url).toBe(`${hde.url}/ticket/list/filter/id/1/ticket/${sent.id}/`);
    expect(hde.authHeaders.at(-1)).toBe(
      `Basic ${Buffer.from(`${hde.email}:${hde.apiKey}`).toString('base64')}`,
    );

    // A chat: the conversation goes into the description, an explicit title wins.
    await ingestEvents(team.sandbox, [
      messageEvent({
        chatExternalId: 'peer-hde',
        text: 'The app crashes on login',
        author: { externalId: 'peer-hde', name: 'Ivan' },
      }),
      messageEvent({
        chatExternalId: 'peer-hde',
        text: 'Version 3.2 on Android',
        author: { externalId: 'peer-hde', name: 'Ivan' },
      }),
    ]);
    const [chatRow] = await db().select().from(chats).where(eq(chats.objectId, team.sandbox.id));
    const chatId = chatRow!.id;
    await call(team.headers, 'POST', `/v1/chats/${chatId}/hde-tickets`, { title: 'Login crash' });
    const fromChat = hde.tickets.at(-1)!;
    expect(fromChat.title).toBe('Login crash');
    expect(fromChat.description).toMatch(/The app crashes on login[\s\S]*Version 3\.2 on Android/);
    expect(fromChat.user_name).toBe('Ivan');

    // Status sync: the helpdesk closes the ticket; the job reads it back.
    hde.setStatus(sent.id, 'closed');
    const result = await syncStatuses({ db: db(), sealer: t.deps.sealer }, { spaceIds: [team.space.id] });
    expect(result).toMatchObject({ checked: 2, changed: 1 });
    const after = await get<{ tickets: Array<{ status: string }> }>(
      team.headers,
      `/v1/items/${itemId}/hde-tickets`,
    );
    expect(after.tickets.map((x) => x.status)).toEqual(['closed']);

    // The periodic job reads back tickets whose status is older than its interval.
    hde.setStatus(sent.id, 'open');
    const job = new HdeSyncJob({ db: db(), sealer: t.deps.sealer, log: t.deps.log });
    await job.tick(new Date(Date.now() + 10 * 60_000));
    const [row] = await db()
      .select()
      .from(hdeTickets)
      .where(eq(hdeTickets.ticketId, String(sent.id)));
    expect(row!.status).toBe('open');
  });

  it('another space sees neither the connection nor the tickets (404), and a space without one gets a clear refusal', async () => {
    const team = await buildTeam();
    const other = await buildTeam();
    const integration = await connect(team);
    const created = await ingestEvents(team.sandbox, [commentEvent()]);
    const itemId = created.itemIds[0]!;

    await get(other.headers, `/v1/hde/${integration.id}`, 404);
    await call(other.headers, 'PUT', `/v1/hde/${integration.id}`, { email: 'x@example.com' }, 404);
    await call(other.headers, 'POST', `/v1/hde/${integration.id}/test`, undefined, 404);
    await get(other.headers, `/v1/items/${itemId}/hde-tickets`, 404);
    await call(other.headers, 'POST', `/v1/items/${itemId}/hde-tickets`, {}, 404);
    await call(
      other.headers,
      'POST',
      '/v1/hde',
      { space_id: team.space.id, domain: hde.url, email: hde.email, api_key: 'k' },
      403,
    );

    const own = await ingestEvents(other.sandbox, [commentEvent()]);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/v1/items/${own.itemIds[0]}/hde-tickets?locale=en`,
      headers: other.headers,
      payload: {},
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('HelpDeskEddy is not connected in this space');
  });
});
