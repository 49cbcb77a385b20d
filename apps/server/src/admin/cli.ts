import { randomBytes } from 'node:crypto';
import { isSpaceFlag, presetFor, SPACE_FLAGS } from '@otklik/shared';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  chats,
  items,
  memberships,
  objects,
  payoutRequests,
  promocodes,
  spaces,
  tariffs,
  users,
} from '../db/schema';
import { AppError } from '../lib/errors';
import { listAllRequests, processDeletion } from '../modules/auth/deletion';
import { hashPassword } from '../modules/auth/passwords';
import { revokeAllSessions } from '../modules/auth/tokens';
import { normalizeCode } from '../modules/referral/service';
import { extendSpace, getSpace, getTariff, setSpaceFlags, setSpaceTariff } from '../modules/spaces/manage';

// The instance operator's commands (`npm run admin -- <command>`, README "Administering an instance").
// Each command is a function of the database and its arguments, printing plain lines: the tests run
// them on the test database, scripts/admin.ts runs them on the instance's.

export class UsageError extends Error {}

type Print = (line: string) => void;

interface Command {
  usage: string;
  run(db: Db, args: string[], print: Print): Promise<void>;
}

const unix = (d: Date) => d.toISOString().slice(0, 10);

function intArg(value: string | undefined, what: string): number {
  const n = Number(value);
  if (!value || !Number.isInteger(n) || n <= 0)
    throw new UsageError(`${what} must be a positive whole number`);
  return n;
}

function dateArg(value: string | undefined): Date {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new UsageError('the date must be YYYY-MM-DD');
  const date = new Date(`${value}T23:59:59Z`);
  if (Number.isNaN(date.getTime())) throw new UsageError('the date must be YYYY-MM-DD');
  return date;
}

async function userByEmail(db: Db, email: string | undefined) {
  if (!email) throw new UsageError('give the user email');
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  if (!user) throw new UsageError(`no user with email ${email}`);
  return user;
}

export const COMMANDS: Record<string, Command> = {
  spaces: {
    usage: 'spaces                                   list spaces with tariff, expiry, users and accounts',
    async run(db, _args, print) {
      const rows = await db
        .select({
          id: spaces.id,
          name: spaces.name,
          tariff: tariffs.name,
          tariffId: spaces.tariffId,
          isTrial: spaces.isTrial,
          expiresAt: spaces.expiresAt,
          users: sql<number>`(select count(*)::int from memberships m where m.space_id = ${spaces.id})`,
          accounts: sql<number>`(select count(*)::int from objects o where o.space_id = ${spaces.id})`,
        })
        .from(spaces)
        .innerJoin(tariffs, eq(tariffs.id, spaces.tariffId))
        .orderBy(asc(spaces.id));
      print('id\tname\ttariff\ttrial\texpires\tusers\taccounts');
      for (const r of rows) {
        print(
          `${r.id}\t${r.name}\t${r.tariffId} ${r.tariff}\t${r.isTrial ? 'yes' : 'no'}\t${unix(r.expiresAt)}\t${r.users}\t${r.accounts}`,
        );
      }
    },
  },
  tariffs: {
    usage: 'tariffs                                  list tariffs (limits, prices, features)',
    async run(db, _args, print) {
      const rows = await db.select().from(tariffs).orderBy(asc(tariffs.id));
      for (const t of rows) {
        print(
          `${t.id}\t${t.name}\tusers ${t.maxUsers ?? '∞'}\taccounts ${t.maxAccounts ?? '∞'}\t${t.isPublic ? 'public' : 'hidden'}\tprices ${JSON.stringify(t.prices)}\tfeatures ${t.features.join(',')}`,
        );
      }
    },
  },
  extend: {
    usage: 'extend <space id> <days> [--paid]         move the expiry by days (from now if already expired)',
    async run(db, args, print) {
      const spaceId = intArg(args[0], 'space id');
      const days = intArg(args[1], 'days');
      const expiresAt = await extendSpace(db, spaceId, { days }, { paid: args.includes('--paid') });
      print(`space ${spaceId} now expires ${unix(expiresAt)}`);
    },
  },
  'set-expiry': {
    usage: 'set-expiry <space id> <YYYY-MM-DD> [--paid] set the expiry date (end of that day, UTC)',
    async run(db, args, print) {
      const spaceId = intArg(args[0], 'space id');
      const expiresAt = await extendSpace(
        db,
        spaceId,
        { until: dateArg(args[1]) },
        { paid: args.includes('--paid') },
      );
      print(`space ${spaceId} now expires ${unix(expiresAt)}`);
    },
  },
  'set-tariff': {
    usage: 'set-tariff <space id> <tariff id> [--trial] move the space to a tariff (paid unless --trial)',
    async run(db, args, print) {
      const spaceId = intArg(args[0], 'space id');
      const tariff = await getTariff(db, intArg(args[1], 'tariff id'));
      await setSpaceTariff(db, spaceId, tariff.id, { isTrial: args.includes('--trial') });
      print(`space ${spaceId} is on tariff ${tariff.id} ${tariff.name}`);
    },
  },
  feature: {
    usage: `feature <space id> <flag> on|off           flags: ${SPACE_FLAGS.join(', ')}`,
    async run(db, args, print) {
      const spaceId = intArg(args[0], 'space id');
      const flag = args[1] ?? '';
      if (!isSpaceFlag(flag))
        throw new UsageError(`unknown flag "${flag}"; flags: ${SPACE_FLAGS.join(', ')}`);
      if (args[2] !== 'on' && args[2] !== 'off') throw new UsageError('say on or off');
      await getSpace(db, spaceId);
      await setSpaceFlags(db, spaceId, { [flag]: args[2] === 'on' }, { asOperator: true });
      print(`space ${spaceId}: ${flag} ${args[2]}`);
    },
  },
  monitoring: {
    usage:
      'monitoring <space id> <queries>             how many monitoring queries the space may keep (0 = off)',
    async run(db, args, print) {
      const spaceId = intArg(args[0], 'space id');
      const limit = Number(args[1]);
      if (!args[1] || !Number.isInteger(limit) || limit < 0 || limit > 1000)
        throw new UsageError('queries must be a whole number from 0 to 1000');
      await getSpace(db, spaceId);
      await db
        .update(spaces)
        .set({ settings: sql`${spaces.settings} || ${JSON.stringify({ monitoring_count: limit })}::jsonb` })
        .where(eq(spaces.id, spaceId));
      print(`space ${spaceId}: monitoring queries ${limit}`);
    },
  },
  'make-admin': {
    usage: 'make-admin <email> <space id>              give a user the administrator role in a space',
    async run(db, args, print) {
      const user = await userByEmail(db, args[0]);
      const spaceId = intArg(args[1], 'space id');
      await getSpace(db, spaceId);
      await db
        .insert(memberships)
        .values({ spaceId, userId: user.id, roles: presetFor('administrator') })
        .onConflictDoUpdate({
          target: [memberships.spaceId, memberships.userId],
          set: { roles: presetFor('administrator'), groupId: null },
        });
      print(`${user.email} is an administrator of space ${spaceId}`);
    },
  },
  'reset-password': {
    usage: 'reset-password <email>                    set a new random password and end all sessions',
    async run(db, args, print) {
      const user = await userByEmail(db, args[0]);
      const password = `${randomBytes(9).toString('base64url')}-7`;
      await db
        .update(users)
        .set({ passwordHash: await hashPassword(password) })
        .where(eq(users.id, user.id));
      await revokeAllSessions(db, user.id);
      print(`new password for ${user.email}: ${password}`);
    },
  },
  partner: {
    usage:
      'partner <email> on|off                   make the user a referral partner (Settings → Referral) or not',
    async run(db, args, print) {
      const user = await userByEmail(db, args[0]);
      if (args[1] !== 'on' && args[1] !== 'off') throw new UsageError('say on or off');
      await db
        .update(users)
        .set({ isPartner: args[1] === 'on' })
        .where(eq(users.id, user.id));
      print(`${user.email} is ${args[1] === 'on' ? 'now' : 'no longer'} a partner`);
    },
  },
  promocode: {
    usage:
      'promocode <CODE> [--discount <percent>] [--trial-days <n>] [--max-uses <n>] [--expires YYYY-MM-DD] [--partner <email>] [--off]\n' +
      '                                           create or change a signup promocode',
    async run(db, args, print) {
      const code = normalizeCode(args[0] ?? '');
      if (!/^[A-Z0-9_-]{3,40}$/.test(code)) throw new UsageError('the code is 3–40 letters, digits, - or _');
      const option = (name: string) => {
        const i = args.indexOf(`--${name}`);
        return i < 0 ? undefined : args[i + 1];
      };
      const set: Partial<typeof promocodes.$inferInsert> = { isActive: !args.includes('--off') };
      const discount = option('discount');
      if (discount !== undefined) {
        const n = Number(discount);
        if (!Number.isInteger(n) || n < 0 || n > 100) throw new UsageError('--discount is 0–100');
        set.discountPercent = n;
      }
      if (option('trial-days') !== undefined)
        set.extraTrialDays = intArg(option('trial-days'), '--trial-days');
      if (option('max-uses') !== undefined) set.maxUses = intArg(option('max-uses'), '--max-uses');
      if (option('expires') !== undefined) set.expiresAt = dateArg(option('expires'));
      if (option('partner') !== undefined) set.partnerUserId = (await userByEmail(db, option('partner'))).id;
      await db
        .insert(promocodes)
        .values({ code, ...set })
        .onConflictDoUpdate({ target: promocodes.code, set });
      print(`promocode ${code} saved`);
    },
  },
  promocodes: {
    usage: 'promocodes                               list promocodes with their uses',
    async run(db, _args, print) {
      const rows = await db.select().from(promocodes).orderBy(asc(promocodes.code));
      print('code\tdiscount\ttrial days\tuses\tpartner\tactive');
      for (const r of rows)
        print(
          `${r.code}\t${r.discountPercent}%\t+${r.extraTrialDays}\t${r.uses}/${r.maxUses ?? '∞'}\t${r.partnerUserId ?? '-'}\t${r.isActive ? 'yes' : 'no'}`,
        );
    },
  },
  payouts: {
    usage: "payouts [<id> paid|rejected]             list partners' payout requests, or settle one",
    async run(db, args, print) {
      if (args[0]) {
        const id = intArg(args[0], 'payout id');
        if (args[1] !== 'paid' && args[1] !== 'rejected') throw new UsageError('say paid or rejected');
        const done = await db
          .update(payoutRequests)
          .set({ state: args[1] })
          .where(eq(payoutRequests.id, id))
          .returning({ id: payoutRequests.id });
        if (done.length === 0) throw new UsageError('not found');
        print(`payout ${id} ${args[1]}`);
        return;
      }
      const rows = await db
        .select({ payout: payoutRequests, email: users.email })
        .from(payoutRequests)
        .innerJoin(users, eq(users.id, payoutRequests.partnerUserId))
        .orderBy(asc(payoutRequests.id));
      print('id\tpartner\tamount\tstate\trequested');
      for (const { payout: r, email } of rows)
        print(
          `${r.id}\t${email}\t${(r.amountMinor / 100).toFixed(2)} ${r.currency}\t${r.state}\t${unix(r.createdAt)}`,
        );
    },
  },
  'deletion-requests': {
    usage: 'deletion-requests                        list data deletion requests (id, user, status, dates)',
    async run(db, _args, print) {
      print('id\tuser\tstatus\tcreated\tupdated');
      for (const { request: r, email } of await listAllRequests(db)) {
        print(
          `${r.id}\t${email ?? '-'}\t${r.status}\t${r.createdAt.toISOString()}\t${r.updatedAt.toISOString()}`,
        );
      }
    },
  },
  'process-deletion': {
    usage:
      'process-deletion <request id>             delete the user (and spaces where they are the only member); mark done',
    async run(db, args, print) {
      if (!args[0]) throw new UsageError('give the request id');
      const { request, spaces: removed } = await processDeletion(db, args[0]);
      print(`request ${request.id} ${request.status}: user deleted, ${removed} space(s) deleted`);
    },
  },
  counts: {
    usage: 'counts                                   how many users, spaces, accounts, comments and chats',
    async run(db, _args, print) {
      const tables = { users, spaces, accounts: objects, comments: items, chats };
      for (const [name, table] of Object.entries(tables)) {
        const [row] = await db.select({ n: count() }).from(table);
        print(`${name} ${row?.n ?? 0}`);
      }
    },
  },
};

// Service errors as the operator reads them.
const ADMIN_ERRORS: Partial<Record<string, string>> = {
  'error.notFound': 'not found',
  'error.deletionRequestNotFound': 'no such deletion request',
  'error.deletionRequestNotPending': 'the request is not pending (cancelled or done)',
};

export function usage(): string {
  return [
    'Usage: npm run admin -- <command> [arguments]',
    '',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
  ].join('\n');
}

/** Runs one command; a wrong command or argument throws UsageError with the line to show. */
export async function runAdminCommand(db: Db, argv: string[], print: Print): Promise<void> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) throw new UsageError(name ? `unknown command "${name}"\n\n${usage()}` : usage());
  try {
    await command.run(db, args, print);
  } catch (error) {
    // Service errors carry a message key; the operator reads English.
    if (error instanceof AppError) throw new UsageError(ADMIN_ERRORS[error.key] ?? error.key);
    throw error;
  }
}
