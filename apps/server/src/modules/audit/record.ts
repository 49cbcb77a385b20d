import { isIP } from 'node:net';
import type { AuditActorKind, AuditKind } from '@otklik/shared';
import type { Db } from '../../db/client';
import { auditLog } from '../../db/schema';
import type { RequestClient } from '../../http/auth';

// The one way an entry enters the action log (issue 16, settings/logs). Services call
// `await audit(tx, by, { spaceId, kind, target, before, after })` inside the transaction of the change,
// so a change and its entry commit or fail together. `by` is the route's ServerActor (it carries the
// request's IP and user agent, spaces/actor.ts) or SYSTEM / operator for jobs, webhooks and the CLI.

export type { AuditKind } from '@otklik/shared';

/** Who acted. A ServerActor fits as is. */
export interface AuditActor {
  userId: number | null;
  kind?: AuditActorKind;
  name?: string | null;
  client?: RequestClient;
}

/** A job, a payment webhook, anything no person asked for right now. */
export const SYSTEM: AuditActor = { userId: null, kind: 'system' };
/** The instance operator's CLI (src/admin). */
export const OPERATOR: AuditActor = { userId: null, kind: 'operator' };

export interface AuditEntry {
  spaceId: number;
  kind: AuditKind;
  target?: { type: string; id: number | string; label?: string | null };
  before?: unknown;
  after?: unknown;
  /** The entry's time; the clock of the change when the caller has one (tests move it). */
  at?: Date;
}

/** An address PostgreSQL's inet accepts; IPv4 seen through an IPv6 socket is shown as IPv4. */
function storableIp(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  return isIP(plain) ? plain : null;
}

/** undefined → null; Dates → ISO; the rest as JSON keeps it. */
function json(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(JSON.stringify(value));
}

export async function audit(db: Db, by: AuditActor | undefined, entry: AuditEntry): Promise<void> {
  const actor = by ?? SYSTEM;
  await db.insert(auditLog).values({
    spaceId: entry.spaceId,
    ...(entry.at ? { at: entry.at } : {}),
    actorKind: actor.kind ?? (actor.userId === null ? 'system' : 'user'),
    actorId: actor.userId,
    actorName: actor.name ?? null,
    ip: storableIp(actor.client?.ip),
    userAgent: actor.client?.userAgent ?? null,
    kind: entry.kind,
    targetType: entry.target?.type ?? null,
    targetId: entry.target ? String(entry.target.id) : null,
    targetLabel: entry.target?.label ?? null,
    before: json(entry.before),
    after: json(entry.after),
  });
}

/**
 * A write and its entry in one transaction, so they commit or fail together: `write` runs on the
 * transaction, and `entry` is made from what it returned.
 */
export function auditedWrite<T>(
  db: Db,
  by: AuditActor,
  write: (tx: Db) => Promise<T>,
  entry: (result: T) => AuditEntry,
): Promise<T> {
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const result = await write(tx);
    await audit(tx, by, entry(result));
    return result;
  });
}

/** Only the keys that changed, from both sides: what an update's entry keeps. */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): { before: Partial<T>; after: Partial<T> } {
  const b: Partial<T> = {};
  const a: Partial<T> = {};
  for (const key of Object.keys(after) as Array<keyof T>) {
    if (after[key] === undefined) continue;
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    b[key] = before[key];
    a[key] = after[key];
  }
  return { before: b, after: a };
}
