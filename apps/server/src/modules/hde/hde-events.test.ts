import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HdeEmulator, startHdeEmulator } from '../../../emulators/hde/emulator';
import { createTestApp, type TestApp } from '../../../test/harness';
import { commentEvent } from '../../../test/inbox-helpers';
import { openSocket } from '../../../test/socket';
import { auditLog } from '../../db/schema';
import { HdeSyncJob } from '../../jobs/hde-sync';
import { buildUserGroup } from '../authors/test-helpers';
import { readKit } from '../inbox/read/read-kit';

// HelpDeskEddy (issue 21) leaves a trace and is live: creating a ticket is an action-log entry of the
// user, a status read back by the sync job is one of the system, and both reach the open item page over
// the socket (`items.hde_ticket`) — only for members who see the account.

let t: TestApp;
let hde: HdeEmulator;
let wsBase: string;
beforeAll(async () => {
  t = await createTestApp({ HDE_ALLOW_PRIVATE: 'true' });
  hde = await startHdeEmulator();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 240_000);
afterAll(async () => {
  await hde?.close();
  await t?.close();
});

const { db, buildTeam, buildMember, ingestEvents } = readKit(() => t);

describe('HelpDeskEddy — action log and live status', { timeout: 120_000 }, () => {
  it('logs the ticket’s creation and its synced status, and pushes both to who sees the account', async () => {
    const team = await buildTeam();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/hde',
      headers: team.headers,
      payload: { space_id: team.space.id, domain: hde.url, email: hde.email, api_key: hde.apiKey },
    });
    expect(res.statusCode, res.body).toBe(200);
    const itemId = (await ingestEvents(team.sandbox, [commentEvent({ text: 'Refund please' })])).itemIds[0]!;

    // A colleague limited to the VK account must not hear about the sandbox account's ticket.
    const group = await buildUserGroup(t, team.space.id, [team.vk.id]);
    const limited = await buildMember(team.space.id, 'operator', { groupId: group.id });
    const owner = await openSocket(`${wsBase}/v1/ws?access_token=${team.token}`);
    const other = await openSocket(`${wsBase}/v1/ws?access_token=${limited.token}`);
    try {
      const made = await t.app.inject({
        method: 'POST',
        url: `/v1/items/${itemId}/hde-tickets`,
        headers: team.headers,
        payload: { title: 'Refund' },
      });
      expect(made.statusCode, made.body).toBe(200);
      const ticket = made.json().ticket as { id: number; ticket_id: string; status: string };
      const created = await owner.waitFor((m) => m.type === 'items.hde_ticket');
      expect(created).toMatchObject({
        object_id: team.sandbox.id,
        item_id: itemId,
        ticket: { id: ticket.id },
      });

      const [entry] = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.spaceId, team.space.id), eq(auditLog.kind, 'hde_ticket.created')));
      expect(entry).toMatchObject({
        actorKind: 'user',
        actorId: team.user.id,
        targetType: 'hde_ticket',
        targetId: String(ticket.id),
        targetLabel: 'Refund',
        after: { ticket_id: ticket.ticket_id, status: ticket.status, item_id: itemId },
      });

      // HelpDeskEddy closes it; the job reads it back: logged as the system, pushed with the new status.
      hde.setStatus(Number(ticket.ticket_id), 'closed');
      const job = new HdeSyncJob({ db: db(), sealer: t.deps.sealer, log: t.deps.log, bus: t.deps.bus });
      expect(await job.tick(new Date(Date.now() + 10 * 60_000))).toMatchObject({ changed: 1 });
      const synced = await owner.waitFor(
        (m) => m.type === 'items.hde_ticket' && (m.ticket as { status: string }).status === 'closed',
      );
      expect(synced).toMatchObject({ item_id: itemId, ticket: { id: ticket.id, status: 'closed' } });
      const [status] = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.spaceId, team.space.id), eq(auditLog.kind, 'hde_ticket.status')));
      expect(status).toMatchObject({
        actorKind: 'system',
        targetId: String(ticket.id),
        before: { status: ticket.status },
        after: { status: 'closed' },
      });
      // An unchanged status the next time is neither logged nor pushed.
      await job.tick(new Date(Date.now() + 20 * 60_000));
      const entries = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.spaceId, team.space.id), eq(auditLog.kind, 'hde_ticket.status')));
      expect(entries).toHaveLength(1);

      expect(other.messages.filter((m) => m.type === 'items.hde_ticket')).toEqual([]);
    } finally {
      owner.ws.close();
      other.ws.close();
    }
  });
});
