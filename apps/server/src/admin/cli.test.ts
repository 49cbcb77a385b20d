import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginTokens, passwordLogin } from '../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../test/harness';
import { memberships, payoutRequests, promocodes, spaces, users } from '../db/schema';
import { buildAdmin } from '../modules/users/testing';
import { runAdminCommand, UsageError } from './cli';

// The instance operator's commands (issue 14 item 4), on the test database; one run of the real
// `npm run admin` entry on an embedded database of its own.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function admin(...argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await runAdminCommand(t.deps.database.db, argv, (line) => lines.push(line));
  return lines;
}

const spaceRow = async (id: number) =>
  (await t.deps.database.db.select().from(spaces).where(eq(spaces.id, id)))[0]!;

describe('npm run admin', () => {
  it('makes a partner, saves promocodes, lists and settles payout requests', async () => {
    const owner = await buildAdmin(t);
    const db = t.deps.database.db;
    expect(await admin('partner', owner.email, 'on')).toEqual([`${owner.email} is now a partner`]);
    expect((await db.select().from(users).where(eq(users.id, owner.user.id)))[0]!.isPartner).toBe(true);
    const code = `CLI${owner.user.id}`;
    await admin(
      'promocode',
      code.toLowerCase(),
      '--discount',
      '15',
      '--trial-days',
      '7',
      '--max-uses',
      '3',
      '--partner',
      owner.email,
    );
    const [row] = await db.select().from(promocodes).where(eq(promocodes.code, code));
    expect(row).toMatchObject({
      discountPercent: 15,
      extraTrialDays: 7,
      maxUses: 3,
      partnerUserId: owner.user.id,
      isActive: true,
    });
    await admin('promocode', code, '--off');
    expect((await db.select().from(promocodes).where(eq(promocodes.code, code)))[0]).toMatchObject({
      isActive: false,
      discountPercent: 15,
    });
    expect((await admin('promocodes')).some((l) => l.startsWith(`${code}\t15%\t+7\t0/3`))).toBe(true);
    await expect(admin('promocode', code, '--discount', '150')).rejects.toThrow('--discount is 0–100');

    const [payout] = await db
      .insert(payoutRequests)
      .values({ partnerUserId: owner.user.id, currency: 'RUB', amountMinor: 123_450 })
      .returning();
    expect(
      (await admin('payouts')).some((l) =>
        l.startsWith(`${payout!.id}\t${owner.email}\t1234.50 RUB\trequested`),
      ),
    ).toBe(true);
    expect(await admin('payouts', String(payout!.id), 'paid')).toEqual([`payout ${payout!.id} paid`]);
  });

  it('lists spaces with tariff, trial, users and accounts', async () => {
    const owner = await buildAdmin(t);
    const lines = await admin('spaces');
    expect(lines[0]).toBe('id\tname\ttariff\ttrial\texpires\tusers\taccounts');
    const line = lines.find((l) => l.startsWith(`${owner.space.id}\t`));
    expect(line).toMatch(/\tTest Co\t10 Trial\tyes\t\d{4}-\d{2}-\d{2}\t1\t0$/);
  });

  it('extends from the expiry, or from now once expired; --paid ends the trial', async () => {
    const owner = await buildAdmin(t);
    const before = (await spaceRow(owner.space.id)).expiresAt;
    await admin('extend', String(owner.space.id), '30', '--paid');
    const after = await spaceRow(owner.space.id);
    expect(after.expiresAt.getTime() - before.getTime()).toBe(30 * 86_400_000);
    expect(after.isTrial).toBe(false);

    await t.deps.database.db
      .update(spaces)
      .set({ expiresAt: new Date(Date.now() - 10 * 86_400_000) })
      .where(eq(spaces.id, owner.space.id));
    await admin('extend', String(owner.space.id), '7');
    const revived = await spaceRow(owner.space.id);
    expect(Math.abs(revived.expiresAt.getTime() - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);

    await admin('set-expiry', String(owner.space.id), '2031-03-01');
    expect((await spaceRow(owner.space.id)).expiresAt.toISOString()).toBe('2031-03-01T23:59:59.000Z');
  });

  it('sets the tariff (switching off flags it does not list) and toggles any feature', async () => {
    const owner = await buildAdmin(t);
    const id = String(owner.space.id);
    await admin('feature', id, 'qa', 'on');
    await admin('feature', id, 'labels', 'on');
    expect((await spaceRow(owner.space.id)).settings).toMatchObject({ qa: true, labels: true });
    expect(await admin('set-tariff', id, '1')).toEqual([`space ${id} is on tariff 1 Start`]);
    const row = await spaceRow(owner.space.id);
    expect(row).toMatchObject({ tariffId: 1, isTrial: false });
    expect(row.settings).toMatchObject({ labels: true });
    expect(row.settings).not.toHaveProperty('qa');
    await admin('feature', id, 'labels', 'off');
    expect((await spaceRow(owner.space.id)).settings).toMatchObject({ labels: false });
  });

  it('sets how many monitoring queries a space keeps', async () => {
    const owner = await buildAdmin(t);
    const id = String(owner.space.id);
    expect(await admin('monitoring', id, '3')).toEqual([`space ${id}: monitoring queries 3`]);
    expect((await spaceRow(owner.space.id)).settings).toMatchObject({ monitoring_count: 3 });
    await admin('monitoring', id, '0');
    expect((await spaceRow(owner.space.id)).settings).toMatchObject({ monitoring_count: 0 });
  });

  it('makes a user an administrator and resets a password, ending their sessions', async () => {
    const owner = await buildAdmin(t);
    const other = await buildAdmin(t);
    await admin('make-admin', other.email, String(owner.space.id));
    const [membership] = await t.deps.database.db
      .select()
      .from(memberships)
      .where(eq(memberships.userId, other.user.id));
    expect(membership).toBeDefined();
    const config = (await t.app.inject({ url: '/v1/config', headers: other.headers })).json();
    const joined = config.spaces.find((s: { id: number }) => s.id === owner.space.id);
    expect(joined.roles.settings).toBe(true);

    const [line] = await admin('reset-password', other.email.toUpperCase());
    const password = line!.split(': ')[1]!;
    expect((await t.app.inject({ url: '/v1/me', headers: other.headers })).statusCode).toBe(401);
    expect((await passwordLogin(t, other.email, 'Secret-pass1')).statusCode).toBe(400);
    await loginTokens(t, other.email, password);
  });

  it('counts, and explains a wrong command or argument', async () => {
    await buildAdmin(t);
    const lines = await admin('counts');
    expect(lines.map((l) => l.split(' ')[0])).toEqual(['users', 'spaces', 'accounts', 'comments', 'chats']);
    expect(Number(lines[0]!.split(' ')[1])).toBeGreaterThan(0);
    await expect(admin('nope')).rejects.toThrow(UsageError);
    await expect(admin('extend', 'x', '3')).rejects.toThrow('space id must be a positive whole number');
    await expect(admin('feature', '1', 'flying', 'on')).rejects.toThrow('unknown flag "flying"');
    await expect(admin('make-admin', 'nobody@example.test', '1')).rejects.toThrow('no user with email');
    await expect(admin('extend', '999999999', '3')).rejects.toThrow('not found');
  });
});

describe('the npm run admin entry', () => {
  it('runs a command on the embedded database under DATA_DIR and exits 2 on a usage error', async () => {
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    const dataDir = mkdtempSync(join(tmpdir(), 'otklik-admin-'));
    const run = (...args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
          cwd: root,
          env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.on('exit', (code) => resolve({ code, out, err }));
      });
    try {
      const counts = await run('counts');
      expect(counts.code).toBe(0);
      expect(counts.out).toContain('spaces 0');
      const wrong = await run('frobnicate');
      expect(wrong.code).toBe(2);
      expect(wrong.err).toContain('unknown command "frobnicate"');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
