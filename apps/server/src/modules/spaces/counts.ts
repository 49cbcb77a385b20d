import type { Db } from '../../db/client';
import type { ServerActor } from './actor';

/**
 * Badge counters (docs/product/entities.md Config: issues_count, issues_expired_count, monitoring_count, items_count).
 * Each domain that owns a counter registers how to read it — cheaply, from maintained counts or an
 * index, never a COUNT(*) over millions of rows. A counter no domain provides yet is 0.
 */
export type CounterName =
  | 'items_count'
  | 'chats_count'
  | 'issues_count'
  | 'issues_expired_count'
  | 'monitoring_count';
export type CounterReader = (db: Db, actor: ServerActor) => Promise<number>;

const readers = new Map<CounterName, CounterReader>();

export function registerCounter(name: CounterName, reader: CounterReader) {
  readers.set(name, reader);
}

export async function readCounts(db: Db, actor: ServerActor, names: CounterName[]) {
  const values = await Promise.all(names.map((name) => readers.get(name)?.(db, actor) ?? Promise.resolve(0)));
  return Object.fromEntries(names.map((name, i) => [name, values[i] ?? 0])) as Record<CounterName, number>;
}

export const CONFIG_COUNTERS: CounterName[] = [
  'issues_count',
  'issues_expired_count',
  'monitoring_count',
  'items_count',
];
