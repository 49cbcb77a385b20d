import {
  isSpaceFlag,
  SPACE_FLAGS,
  type SpaceDetailsView,
  type SpaceFlag,
  spaceSettingsSchema,
  type TariffView,
} from '@otklik/shared';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { memberships, objects, spaces, tariffs } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type AuditActor, audit, changedFields, OPERATOR } from '../audit/record';
import { isValidTimeZone } from '../workinghours/timezone';
import { createTrialSpace } from './service';

// Space administration (issue 14: rename, another space, feature flags by tariff) and tariffs as data.
// The instance operator's CLI (src/admin) uses the same functions with `asOperator`, which may also
// switch flags the tariff does not list.

type TariffRow = typeof tariffs.$inferSelect;
type SpaceRow = typeof spaces.$inferSelect;

/** The first space of an instance does not expire: its owner owns the instance. */
const INSTANCE_SPACE_YEARS = 100;

export function presentTariff(row: TariffRow): TariffView {
  return {
    id: row.id,
    name: row.name,
    prices: row.prices,
    max_users: row.maxUsers,
    max_accounts: row.maxAccounts,
    features: row.features.filter(isSpaceFlag),
    is_public: row.isPublic,
  };
}

export async function findTariffs(db: Db, opts: { publicOnly?: boolean } = {}): Promise<TariffRow[]> {
  const rows = await db.select().from(tariffs).orderBy(asc(tariffs.id));
  return opts.publicOnly ? rows.filter((row) => row.isPublic) : rows;
}

export async function getTariff(db: Db, id: number): Promise<TariffRow> {
  const [row] = await db.select().from(tariffs).where(eq(tariffs.id, id)).limit(1);
  if (!row) throw new AppError(404, 'space.tariffNotFound');
  return row;
}

/**
 * The space a signup creates. The very first space of an instance is the self-hoster's own: on the
 * tariff that allows every feature, paid (not a trial) and not expiring; every later one is a trial.
 */
export async function createSignupSpace(
  db: Db,
  opts: { name: string; ownerId: number; tariffId?: number; promocode?: string; locale?: string },
  /** Config FIRST_SPACE_TARIFF_ID; 0 turns the rule off. */
  instanceTariffId: number,
): Promise<SpaceRow> {
  const [anySpace] = await db.select({ id: spaces.id }).from(spaces).limit(1);
  const space = await createTrialSpace(db, opts);
  if (anySpace || !instanceTariffId) return space;
  const [instanceTariff] = await db
    .select({ id: tariffs.id })
    .from(tariffs)
    .where(eq(tariffs.id, instanceTariffId))
    .limit(1);
  if (!instanceTariff) return space;
  const expiresAt = new Date(space.createdAt);
  expiresAt.setUTCFullYear(expiresAt.getUTCFullYear() + INSTANCE_SPACE_YEARS);
  const [updated] = await db
    .update(spaces)
    .set({ tariffId: instanceTariff.id, isTrial: false, expiresAt })
    .where(eq(spaces.id, space.id))
    .returning();
  return updated!;
}

export async function getSpace(db: Db, spaceId: number): Promise<SpaceRow> {
  const [row] = await db.select().from(spaces).where(eq(spaces.id, spaceId)).limit(1);
  if (!row) throw new AppError(404, 'error.notFound');
  return row;
}

export async function getSpaceDetails(db: Db, spaceId: number): Promise<SpaceDetailsView> {
  const space = await getSpace(db, spaceId);
  const [tariff, [users], [accounts]] = await Promise.all([
    getTariff(db, space.tariffId),
    db.select({ n: count() }).from(memberships).where(eq(memberships.spaceId, spaceId)),
    db.select({ n: count() }).from(objects).where(eq(objects.spaceId, spaceId)),
  ]);
  const settings = spaceSettingsSchema.parse(space.settings);
  return {
    id: space.id,
    name: space.name,
    timezone: space.timezone,
    is_trial: space.isTrial,
    expires_at: Math.floor(space.expiresAt.getTime() / 1000),
    tariff: presentTariff(tariff),
    flags: Object.fromEntries(SPACE_FLAGS.map((flag) => [flag, settings[flag] === true])) as Record<
      SpaceFlag,
      boolean
    >,
    usage: { users: users?.n ?? 0, accounts: accounts?.n ?? 0 },
  };
}

export async function updateSpace(
  db: Db,
  spaceId: number,
  changes: { name?: string; timezone?: string },
  by?: AuditActor,
): Promise<void> {
  if (changes.timezone !== undefined && !isValidTimeZone(changes.timezone))
    throw new AppError(400, 'space.invalidTimezone', { fields: { timezone: 'space.invalidTimezone' } });
  const set: Partial<SpaceRow> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.timezone !== undefined) set.timezone = changes.timezone;
  if (Object.keys(set).length === 0) throw new AppError(400, 'update.empty');
  await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const [before] = await tx
      .select({ name: spaces.name, timezone: spaces.timezone })
      .from(spaces)
      .where(eq(spaces.id, spaceId))
      .for('update');
    if (!before) throw new AppError(404, 'error.notFound');
    await tx.update(spaces).set(set).where(eq(spaces.id, spaceId));
    const target = { type: 'space', id: spaceId, label: set.name ?? before.name };
    const name = changedFields(before, { name: set.name });
    if (name.after.name !== undefined)
      await audit(tx, by, { spaceId, kind: 'space.renamed', target, ...name });
    const zone = changedFields(before, { timezone: set.timezone });
    if (zone.after.timezone !== undefined)
      await audit(tx, by, { spaceId, kind: 'space.timezone', target, ...zone });
  });
}

/**
 * Switches feature flags. Switching on needs the tariff to list the flag (unless the instance operator
 * does it); switching off is always allowed. One statement: concurrent changes to other flags are kept.
 */
export async function setSpaceFlags(
  db: Db,
  spaceId: number,
  flags: Partial<Record<SpaceFlag, boolean>>,
  opts: { asOperator?: boolean } = {},
  by: AuditActor | undefined = opts.asOperator ? OPERATOR : undefined,
): Promise<void> {
  const space = await getSpace(db, spaceId);
  if (!opts.asOperator) {
    const tariff = await getTariff(db, space.tariffId);
    for (const [flag, on] of Object.entries(flags)) {
      if (on && !tariff.features.includes(flag))
        throw new AppError(400, 'space.featureNotInTariff', { errorType: 'feature_not_in_tariff' });
    }
  }
  const patch = JSON.stringify(flags);
  await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const [old] = await tx
      .select({ settings: spaces.settings })
      .from(spaces)
      .where(eq(spaces.id, spaceId))
      .for('update');
    await tx
      .update(spaces)
      .set({ settings: sql`${spaces.settings} || ${patch}::jsonb` })
      .where(eq(spaces.id, spaceId));
    const before: Record<string, unknown> = old?.settings ?? space.settings;
    for (const [flag, on] of Object.entries(flags)) {
      if ((before[flag] === true) === on) continue;
      await audit(tx, by, {
        spaceId,
        kind: 'space.flag',
        target: { type: 'flag', id: flag, label: flag },
        before: { [flag]: before[flag] === true },
        after: { [flag]: on },
      });
    }
  });
}

/**
 * Moves a space to another tariff; flags the new tariff does not list are switched off, so the
 * space never keeps a feature it no longer pays for.
 */
export async function setSpaceTariff(
  db: Db,
  spaceId: number,
  tariffId: number,
  opts: { isTrial?: boolean } = {},
  by: AuditActor = OPERATOR,
): Promise<void> {
  const tariff = await getTariff(db, tariffId);
  const space = await getSpace(db, spaceId);
  const settings = { ...space.settings };
  for (const flag of SPACE_FLAGS) if (!tariff.features.includes(flag)) delete settings[flag];
  await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    await tx
      .update(spaces)
      .set({ tariffId, settings, ...(opts.isTrial !== undefined ? { isTrial: opts.isTrial } : {}) })
      .where(eq(spaces.id, spaceId));
    if (space.tariffId !== tariffId) {
      const old = await getTariff(tx, space.tariffId).catch(() => undefined);
      await audit(tx, by, {
        spaceId,
        kind: 'billing.tariff',
        target: { type: 'tariff', id: tariffId, label: tariff.name },
        before: { tariff: old?.name ?? space.tariffId },
        after: { tariff: tariff.name },
      });
    }
  });
}

/** Moves the expiry: by `days` from the later of now and the current expiry, or to a date. */
export async function extendSpace(
  db: Db,
  spaceId: number,
  by: { days: number; now?: Date } | { until: Date },
  opts: { paid?: boolean } = {},
): Promise<Date> {
  const space = await getSpace(db, spaceId);
  let expiresAt: Date;
  if ('until' in by) expiresAt = by.until;
  else {
    const now = by.now ?? new Date();
    const from = Math.max(space.expiresAt.getTime(), now.getTime());
    expiresAt = new Date(from + by.days * 86_400_000);
  }
  await db
    .update(spaces)
    .set({ expiresAt, ...(opts.paid ? { isTrial: false } : {}) })
    .where(eq(spaces.id, spaceId));
  return expiresAt;
}
