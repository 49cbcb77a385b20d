import { createHash } from 'node:crypto';
import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

// Hot statements written as SQL (a data-modifying CTE, unnest-fed multi-row inserts) still hand back
// the same typed rows as drizzle's query builder: columns are read by their database names and go
// through each column's own driver mapping (timestamps → Date, bigint → number, jsonb → value).

/** Raw rows of `table` (database column names) as drizzle's `$inferSelect` rows. */
export function rowsOf<T extends PgTable>(
  table: T,
  raw: Array<Record<string, unknown>>,
): T['$inferSelect'][] {
  const columns = Object.entries(getTableColumns(table));
  return raw.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = row[column.name];
      out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return out as T['$inferSelect'];
  });
}

/** Runs a statement that returns whole rows of `table` and maps them (rowsOf). */
export async function selectRows<T extends PgTable>(
  db: Db,
  table: T,
  query: SQL,
): Promise<T['$inferSelect'][]> {
  const result = (await db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> };
  return rowsOf(table, result.rows ?? []);
}

/**
 * `unnest($1::text[], $2::bigint[], …) AS alias(col1, col2, …)`: a whole batch as one array parameter per
 * column, instead of one parameter per value (which costs more to build than to run at batch sizes).
 */
export function unnestRows(
  alias: string,
  columns: Array<[name: string, pgType: string, values: unknown[]]>,
): SQL {
  const arrays = columns.map(([, type, values]) => sql`${sql.param(values)}::${sql.raw(type)}[]`);
  return sql`unnest(${sql.join(arrays, sql`, `)}) AS ${sql.raw(alias)}(${sql.raw(columns.map(([name]) => name).join(', '))})`;
}

/** `table.*` minus the generated search vector, for RETURNING lists of tables that have one. */
export function columnsWithout(table: PgTable, ...skip: string[]): SQL {
  const names = Object.values(getTableColumns(table))
    .map((column) => column.name)
    .filter((name) => !skip.includes(name));
  return sql.raw(names.map((name) => `"${name}"`).join(', '));
}

const dialect = new PgDialect();
/** Statement names by text: a hot statement's text repeats, hashing it once is enough. */
const statementNames = new Map<string, string>();

/**
 * `db.execute(query)` as a named prepared statement: PostgreSQL parses, analyses and plans the text once
 * per connection (and may settle on a generic plan), instead of for every call. For the hot statements
 * of the ingestion pipeline, whose text is the same for every batch (values go as parameters, rows as
 * unnest arrays). The name is the text's hash, so two texts never share one. PGlite runs it as a plain query.
 */
export async function executePrepared<T>(db: Db, query: SQL): Promise<{ rows: T[] }> {
  const built = dialect.sqlToQuery(query);
  let name = statementNames.get(built.sql);
  if (name === undefined) {
    name = `otklik_${createHash('sha256').update(built.sql).digest('hex').slice(0, 24)}`;
    if (statementNames.size >= 1_000) statementNames.clear();
    statementNames.set(built.sql, name);
  }
  return (await db._.session.prepareQuery(built, undefined, name, false).execute()) as { rows: T[] };
}
