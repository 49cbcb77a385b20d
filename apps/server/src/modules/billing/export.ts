import { Readable } from 'node:stream';
import type { Db } from '../../db/client';
import type { Logger } from '../../lib/logger';
import { readPage, tenantTables } from './space-data';

const PAGE = 500;

/**
 * The space's content as one JSON document, written page by page (the whole space is never in memory):
 * `{"format":"otklik-space-export","version":1,"space_id":…,"exported_at":…,"tables":{"items":[…],…}}`.
 * Credentials and token digests are left out.
 */
export function exportSpace(db: Db, log: Logger, spaceId: number): Readable {
  async function* generate() {
    yield `{"format":"otklik-space-export","version":1,"space_id":${spaceId},"exported_at":${JSON.stringify(new Date().toISOString())},"tables":{`;
    const tables = await tenantTables(db);
    let firstTable = true;
    for (const table of tables) {
      yield `${firstTable ? '' : ','}${JSON.stringify(table.name)}:[`;
      firstTable = false;
      let after: string | null = null;
      let first = true;
      for (;;) {
        const page = await readPage(db, table, spaceId, after, PAGE);
        for (const { row } of page) {
          yield `${first ? '' : ','}${JSON.stringify(row)}`;
          first = false;
        }
        if (page.length < PAGE) break;
        after = page[page.length - 1]!.ctid;
      }
      yield ']';
    }
    yield '}}\n';
    log.info({ spaceId }, 'Space exported');
  }
  return Readable.from(generate());
}
