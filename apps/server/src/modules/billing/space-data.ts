import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

// The tables that hold a space's rows (every tenant row has space_id — ARCHITECTURE), read from the
// catalogue so a table added later is exported and deleted without touching this file.

export interface TenantTable {
  name: string;
  /** Columns never exported: credentials and token digests (sealed or hashed, still secrets). */
  secretColumns: string[];
}

const SECRET = /(secret|token|password|credential|hash_digest|sealed)/i;

/** Tenant tables, children before parents (a table referencing another comes first), so deleting in this order never trips a foreign key. */
export async function tenantTables(db: Db): Promise<TenantTable[]> {
  const columns = (await db.execute(sql`
    SELECT c.table_name AS t, c.column_name AS c FROM information_schema.columns c
    JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
    WHERE c.table_schema = 'public' AND tb.table_type = 'BASE TABLE'
      AND c.table_name IN (SELECT table_name FROM information_schema.columns
                           WHERE table_schema = 'public' AND column_name = 'space_id')`)) as unknown as {
    rows: Array<{ t: string; c: string }>;
  };
  const byTable = new Map<string, string[]>();
  for (const row of rows(columns)) byTable.set(row.t, [...(byTable.get(row.t) ?? []), row.c]);
  const refs = rows(
    (await db.execute(sql`
      SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
      FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid <> c.confrelid`)) as unknown as {
      rows: Array<{ child: string; parent: string }>;
    },
  ).map((r) => ({ child: unquote(r.child), parent: unquote(r.parent) }));
  // Kahn's order on "parent waits for its children".
  const names = [...byTable.keys()].sort();
  const children = new Map(names.map((n) => [n, new Set<string>()]));
  for (const { child, parent } of refs)
    if (children.has(child) && children.has(parent)) children.get(parent)!.add(child);
  const ordered: string[] = [];
  const left = new Set(names);
  while (left.size > 0) {
    const ready = [...left].filter((n) => [...children.get(n)!].every((c) => !left.has(c)));
    // A cycle: take the rest as they are (cascading keys carry the remainder).
    const batch = ready.length > 0 ? ready : [...left];
    for (const n of batch) {
      ordered.push(n);
      left.delete(n);
    }
  }
  return ordered.map((name) => ({
    name,
    secretColumns: (byTable.get(name) ?? []).filter((c) => SECRET.test(c)),
  }));
}

function rows<T>(result: { rows: T[] } | T[]): T[] {
  return Array.isArray(result) ? result : result.rows;
}

const unquote = (name: string) => name.replace(/^"|"$/g, '').replace(/^public\./, '');

export const ident = (name: string) => sql.raw(`"${name.replace(/"/g, '""')}"`);

/** One page of a table's rows of the space, after `afterCtid`, as JSON without secret columns. */
export async function readPage(
  db: Db,
  table: TenantTable,
  spaceId: number,
  afterCtid: string | null,
  limit: number,
): Promise<Array<{ ctid: string; row: unknown }>> {
  const drop = table.secretColumns.length ? sql` - ${`{${table.secretColumns.join(',')}}`}::text[]` : sql``;
  const result = (await db.execute(sql`
    SELECT t.ctid::text AS ctid, (to_jsonb(t)${drop}) AS row FROM ${ident(table.name)} t
    WHERE t.space_id = ${spaceId} ${afterCtid ? sql`AND t.ctid > ${afterCtid}::tid` : sql``}
    ORDER BY t.ctid LIMIT ${limit}`)) as unknown as { rows: Array<{ ctid: string; row: unknown }> };
  return rows(result);
}
