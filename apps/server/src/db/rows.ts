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
  return (await db._.session.prepareQuery(built, undefined, nameOf(built.sql), false).execute()) as {
    rows: T[];
  };
}

/** A prepared statement's name for `text`: its hash, remembered (a hot statement's text repeats). */
function nameOf(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `otklik_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    if (statementNames.size >= 1_000) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/** A statement rendered to its text and parameters, with the name it is prepared under. */
export interface BuiltStatement {
  text: string;
  params: readonly unknown[];
  /** The text's hash: a prepared statement's name, never shared by two texts. */
  name: string;
}

/**
 * Rendered statements of recent requests, by a key the caller makes from everything the statement
 * depends on. Building a read's SQL with drizzle and rendering it to text can cost more CPU than the
 * database spends answering it (the inbox list: about a fifth of a request, `BENCH_PROFILE` in
 * `npm run bench -- inbox`, 2026-11-28); where the statement is a function of the key alone — the clock
 * entering it only as the database's now() — and the same requests come again and again (each member's
 * views and counters), the last `max` are kept, least recently used forgotten first.
 */
export class KeptStatements {
  private readonly kept = new Map<string, BuiltStatement | null>();

  constructor(private readonly max: number) {}

  /** The statement for `key`: kept, or built now (null: nothing to ask the database). */
  get(key: string, build: () => SQL | null): BuiltStatement | null {
    const kept = this.kept.get(key);
    if (kept !== undefined) {
      // Most recently used last: the first key is the one to forget.
      this.kept.delete(key);
      this.kept.set(key, kept);
      return kept;
    }
    const query = build();
    let made: BuiltStatement | null = null;
    if (query) {
      const { sql: text, params } = dialect.sqlToQuery(query);
      made = { text, params: Object.freeze(params), name: nameOf(text) };
    }
    this.kept.set(key, made);
    if (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value!);
    return made;
  }

  get size() {
    return this.kept.size;
  }
}

/** Runs a built statement, as a named prepared statement when `prepared` (PGlite: a plain query). */
export async function executeBuilt<T>(
  db: Db,
  statement: BuiltStatement,
  prepared: boolean,
): Promise<{ rows: T[] }> {
  const query = { sql: statement.text, params: statement.params as unknown[] };
  return (await db._.session
    .prepareQuery(query, undefined, prepared ? statement.name : undefined, false)
    .execute()) as { rows: T[] };
}
