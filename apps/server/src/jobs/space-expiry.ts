import {
  DELETION_AFTER_EXPIRY_PAID_S,
  DELETION_AFTER_EXPIRY_TRIAL_S,
  daysRemaining,
  deletionDate,
  type Locale,
} from '@otklik/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { billingNotices, memberships, spaces, users } from '../db/schema';
import type { Logger } from '../lib/logger';
import { PeriodicTask } from '../lib/periodic';
import type { Mailer } from '../mail/mailer';
import { renderBillingWarning } from '../mail/templates';
import { ident, tenantTables } from '../modules/billing/space-data';
import { notifySpaceExpiry } from '../modules/notifications/events';
import type { EventBus } from '../realtime/bus';

// Issue 14 item 5: warnings before a space expires and before its data is deleted, and the deletion
// itself at expiry + 3 days (trial) / + 7 days (paid), docs/product/states.md/limits.md.

/** Days before the date at which a warning goes out; the smallest one reached is sent. */
export const WARNING_DAYS = [7, 3, 1] as const;
const EVERY_MS = 15 * 60_000;
/** Rows per DELETE statement, and statements per run: a big space goes over several runs. */
const BATCH = 2_000;
const MAX_STATEMENTS = 500;

type SpaceRow = typeof spaces.$inferSelect;
/** Tests on a shared database limit a run to their own spaces; the job itself looks at every space. */
interface Scope {
  among?: number[];
}
const among = (opts: Scope) => (opts.among ? inArray(spaces.id, opts.among) : undefined);

export class SpaceExpiryJob {
  private readonly task: PeriodicTask;

  constructor(
    private readonly deps: {
      db: Db;
      log: Logger;
      mailer: Mailer;
      appUrl: string;
      /** Issue 18: with a bus, the administrators also get a `space_expiry` notification. */
      bus?: EventBus;
    },
  ) {
    this.task = new PeriodicTask('Space expiry', () => this.run(), deps.log);
  }

  start(intervalMs = EVERY_MS) {
    this.task.start(intervalMs);
  }

  stop() {
    return this.task.stop();
  }

  async run(now = new Date()) {
    const warned = await this.warn(now);
    const deleted = await this.deleteDue(now);
    return { warned, deleted };
  }

  /** Sends the due warnings; returns how many mails went out. */
  async warn(now = new Date(), opts: Scope = {}): Promise<number> {
    const nowS = Math.floor(now.getTime() / 1000);
    const horizon = new Date(now.getTime() + (WARNING_DAYS[0] + 7) * 86_400_000);
    const candidates = await this.deps.db
      .select()
      .from(spaces)
      .where(and(sql`${spaces.expiresAt} <= ${horizon.toISOString()}::timestamptz`, among(opts)));
    let sent = 0;
    for (const space of candidates) {
      const view = { expires_at: Math.floor(space.expiresAt.getTime() / 1000), is_trial: space.isTrial };
      // Before expiry: the expiry warnings; once expired: the deletion warnings.
      const expired = view.expires_at <= nowS;
      const kind = expired ? 'deletion' : 'expiry';
      const target = expired ? deletionDate(view) : view.expires_at;
      const days = daysRemaining({ expires_at: target }, nowS);
      const step = [...WARNING_DAYS].reverse().find((d) => days <= d);
      if (days === 0 || step === undefined) continue;
      // Claimed before sending: one row per (space, kind, step, date) across nodes and restarts.
      const claimed = await this.deps.db
        .insert(billingNotices)
        .values({ spaceId: space.id, kind, daysBefore: step, targetAt: new Date(target * 1000) })
        .onConflictDoNothing()
        .returning({ spaceId: billingNotices.spaceId });
      if (claimed.length === 0) continue;
      sent += await this.mailAdmins(space, kind, target, days);
    }
    return sent;
  }

  private async mailAdmins(space: SpaceRow, kind: 'expiry' | 'deletion', target: number, days: number) {
    const admins = await this.deps.db
      .select({ email: users.email, name: users.name, locale: users.locale })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.spaceId, space.id), sql`(${memberships.roles}->>'settings')::boolean`));
    for (const admin of admins) {
      const locale: Locale = admin.locale === 'en' ? 'en' : 'ru';
      const date = new Date(target * 1000).toLocaleDateString(locale === 'ru' ? 'ru-RU' : 'en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: space.timezone,
      });
      const mail = renderBillingWarning(kind, locale, {
        name: admin.name,
        spaceName: space.name,
        date,
        days,
        link: `${this.deps.appUrl}/settings/billing?space_id=${space.id}`,
      });
      await this.deps.mailer.send({ to: admin.email, ...mail, kind: `billing_${kind}` });
    }
    if (this.deps.bus) {
      const bus = this.deps.bus;
      const text = (locale: Locale) =>
        renderBillingWarning(kind, locale, {
          name: '',
          spaceName: space.name,
          date: new Date(target * 1000).toLocaleDateString(locale === 'ru' ? 'ru-RU' : 'en-GB', {
            day: 'numeric',
            month: 'long',
            year: 'numeric',
            timeZone: space.timezone,
          }),
          days,
          link: `${this.deps.appUrl}/settings/billing?space_id=${space.id}`,
        }).subject;
      await notifySpaceExpiry({ db: this.deps.db, bus }, space, days, text).catch((error: unknown) =>
        this.deps.log.error({ err: String(error), spaceId: space.id }, 'Space expiry notification failed'),
      );
    }
    this.deps.log.info({ spaceId: space.id, kind, days, recipients: admins.length }, 'Billing warning sent');
    return admins.length;
  }

  /** Deletes the data of every space past its deletion date; returns the ids of those finished. */
  async deleteDue(now = new Date(), opts: Scope = {}): Promise<number[]> {
    const due = await this.deps.db
      .select({ id: spaces.id, name: spaces.name })
      .from(spaces)
      .where(
        and(
          among(opts),
          sql`${spaces.expiresAt} + make_interval(secs => CASE WHEN ${spaces.isTrial}
          THEN ${DELETION_AFTER_EXPIRY_TRIAL_S}::int ELSE ${DELETION_AFTER_EXPIRY_PAID_S}::int END)
          <= ${now.toISOString()}::timestamptz`,
        ),
      )
      .orderBy(spaces.id);
    const finished: number[] = [];
    let budget = MAX_STATEMENTS;
    for (const space of due) {
      const result = await this.deleteSpace(space.id, budget);
      budget = result.budget;
      if (result.done) {
        finished.push(space.id);
        this.deps.log.info(
          { spaceId: space.id, name: space.name, rows: result.rows },
          'Space deleted after expiry',
        );
      }
      if (budget <= 0) break;
    }
    return finished;
  }

  /**
   * One space's rows, table by table (children first) in batches of BATCH; every statement names the
   * space id, so no other space's row can go. The space row itself goes last.
   */
  private async deleteSpace(spaceId: number, budget: number) {
    const rows: Record<string, number> = {};
    const tables = await tenantTables(this.deps.db);
    // Triggers write rows while others go (inbox_counters follow deleted items): passes repeat until
    // one deletes nothing.
    for (let pass = 0; pass < 3; pass++) {
      let deletedThisPass = 0;
      for (const table of tables) {
        while (budget > 0) {
          budget--;
          const result = (await this.deps.db.execute(sql`
            DELETE FROM ${ident(table.name)} WHERE ctid IN (
              SELECT ctid FROM ${ident(table.name)} WHERE space_id = ${spaceId} LIMIT ${BATCH})`)) as unknown as {
            rowCount?: number | null;
            affectedRows?: number;
          };
          const n = Number(result.rowCount ?? result.affectedRows ?? 0);
          deletedThisPass += n;
          if (n > 0) rows[table.name] = (rows[table.name] ?? 0) + n;
          if (n < BATCH) break;
        }
        if (budget <= 0) {
          this.deps.log.info({ spaceId, rows }, 'Space deletion continues on the next run');
          return { done: false, budget, rows };
        }
      }
      if (deletedThisPass === 0) break;
    }
    await this.deps.db.delete(spaces).where(eq(spaces.id, spaceId));
    return { done: true, budget, rows };
  }
}
