import {
  AUDIT_KINDS,
  AUDIT_PAGE_SIZE,
  AUDIT_RETENTION_DEFAULT_DAYS,
  type AuditEntryDto,
  type AuditPageDto,
  type AuditQuery,
  auditChanges,
  auditGroupOf,
} from '@otklik/shared';
import { stringify } from 'csv-stringify';
import { and, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog, auditSettings, memberships, users } from '../../db/schema';
import type { AuditActor } from './record';
import { audit } from './record';

// Reading the action log: one space's entries, newest first, by keyset over (at, id) on
// audit_log_space_at_idx; filters by actor, kinds (or their groups), target and period. Entries are
// never changed here or anywhere else (the table's trigger refuses it).

/** Kinds named, groups expanded to their kinds. */
export function expandKinds(kinds: string[]): string[] {
  const out = new Set<string>();
  for (const k of kinds) {
    if (k.includes('.')) out.add(k);
    else for (const known of AUDIT_KINDS) if (auditGroupOf(known) === k) out.add(known);
  }
  return [...out];
}

const AT_MICROS = sql<string>`(extract(epoch from ${auditLog.at}) * 1000000)::bigint::text`;

function whereOf(query: AuditQuery) {
  const conditions = [eq(auditLog.spaceId, query.space_id)];
  if (query.user_id !== undefined) conditions.push(eq(auditLog.actorId, query.user_id));
  if (query.kind.length > 0) conditions.push(inArray(auditLog.kind, expandKinds(query.kind)));
  if (query.target_type) conditions.push(eq(auditLog.targetType, query.target_type));
  if (query.target_id) conditions.push(eq(auditLog.targetId, query.target_id));
  if (query.from !== undefined) conditions.push(gte(auditLog.at, new Date(query.from * 1000)));
  if (query.to !== undefined) conditions.push(lt(auditLog.at, new Date(query.to * 1000)));
  if (query.cursor) {
    const [micros, id] = query.cursor.split('_');
    conditions.push(
      sql`(${auditLog.at}, ${auditLog.id}) < (timestamptz 'epoch' + ${micros}::bigint * interval '1 microsecond', ${Number(id)}::bigint)`,
    );
  }
  return and(...conditions);
}

type Row = Awaited<ReturnType<typeof selectPage>>[number];

function selectPage(db: Db, query: AuditQuery, limit: number) {
  return db
    .select({
      entry: auditLog,
      atMicros: AT_MICROS,
      currentName: users.name,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(whereOf(query))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(limit);
}

export function presentEntry(row: Row): AuditEntryDto {
  const e = row.entry;
  return {
    id: e.id,
    at: e.at.toISOString(),
    actor_kind: e.actorKind as AuditEntryDto['actor_kind'],
    actor_id: e.actorId,
    actor_name: row.currentName ?? e.actorName,
    ip: e.ip,
    user_agent: e.userAgent,
    kind: e.kind,
    target_type: e.targetType,
    target_id: e.targetId,
    target_label: e.targetLabel,
    before: e.before,
    after: e.after,
  };
}

const cursorOf = (row: Row) => `${row.atMicros}_${row.entry.id}`;

export async function findEntries(db: Db, query: AuditQuery): Promise<AuditPageDto> {
  const limit = query.limit ?? AUDIT_PAGE_SIZE;
  const rows = await selectPage(db, query, limit + 1);
  const page = rows.slice(0, limit);
  return {
    items: page.map(presentEntry),
    next_cursor: rows.length > limit && page.length > 0 ? cursorOf(page[page.length - 1]!) : null,
  };
}

/** A cell a spreadsheet would run as a formula gets a leading apostrophe (OWASP CSV injection). */
const guardCell = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

const text = (v: unknown) =>
  v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);

export const AUDIT_CSV_COLUMNS = [
  'at',
  'actor',
  'actor_id',
  'actor_kind',
  'ip',
  'user_agent',
  'kind',
  'target_type',
  'target_id',
  'target',
  'changes',
  'before',
  'after',
] as const;

function csvRecord(e: AuditEntryDto): string[] {
  const changes = auditChanges(e.before, e.after)
    .map((c) => `${c.key ? `${c.key}: ` : ''}${text(c.from) || '—'} → ${text(c.to) || '—'}`)
    .join('; ');
  return [
    e.at,
    e.actor_name ?? '',
    e.actor_id === null ? '' : String(e.actor_id),
    e.actor_kind,
    e.ip ?? '',
    e.user_agent ?? '',
    e.kind,
    e.target_type ?? '',
    e.target_id ?? '',
    e.target_label ?? '',
    changes,
    text(e.before),
    text(e.after),
  ].map(guardCell);
}

const CSV_BATCH = 1_000;

/**
 * The filtered entries as CSV, streamed: pages of CSV_BATCH rows by the same keyset, written as they
 * come, so a large log never sits in memory whole.
 */
export function streamCsv(db: Db, query: AuditQuery) {
  const out = stringify({ bom: true });
  out.write([...AUDIT_CSV_COLUMNS]);
  void (async () => {
    let cursor = query.cursor;
    try {
      for (;;) {
        const page = await findEntries(db, { ...query, cursor, limit: CSV_BATCH });
        for (const entry of page.items) {
          if (!out.write(csvRecord(entry))) await new Promise((resolve) => out.once('drain', resolve));
        }
        if (!page.next_cursor) break;
        cursor = page.next_cursor;
      }
      out.end();
    } catch (error) {
      out.destroy(error as Error);
    }
  })();
  return out;
}

// ---------------------------------------------------------------- settings

export async function getRetentionDays(db: Db, spaceId: number): Promise<number> {
  const [row] = await db
    .select({ days: auditSettings.retentionDays })
    .from(auditSettings)
    .where(eq(auditSettings.spaceId, spaceId));
  return row?.days ?? AUDIT_RETENTION_DEFAULT_DAYS;
}

export async function setRetentionDays(db: Db, spaceId: number, days: number, by: AuditActor) {
  await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const before = await getRetentionDays(tx, spaceId);
    await tx
      .insert(auditSettings)
      .values({ spaceId, retentionDays: days })
      .onConflictDoUpdate({ target: auditSettings.spaceId, set: { retentionDays: days } });
    if (before !== days)
      await audit(tx, by, {
        spaceId,
        kind: 'space.retention',
        before: { retention_days: before },
        after: { retention_days: days },
      });
  });
}

/** The space's members (the user filter's choices). */
export async function findSpaceUsers(db: Db, spaceId: number) {
  return db
    .select({ id: users.id, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.spaceId, spaceId))
    .orderBy(users.name);
}
