import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client';

// TEST-ONLY: failures the real database produces on demand, for rows whose `text` contains a marker
// unique to the test (so tests sharing one database are not affected). Each returns its undo.

const uniqueName = (kind: string) => `test_${kind}_${randomUUID().replaceAll('-', '')}`;

/** A check constraint (SQLSTATE 23514): the database refuses the row's data. */
export async function refuseRowsContaining(db: Db, table: 'messages' | 'items', marker: string) {
  const name = uniqueName('refuse');
  await db.execute(
    sql.raw(
      `ALTER TABLE ${table} ADD CONSTRAINT ${name} CHECK (position('${marker}' in text) = 0) NOT VALID`,
    ),
  );
  return async () => {
    await db.execute(sql.raw(`ALTER TABLE ${table} DROP CONSTRAINT ${name}`));
  };
}

/** A trigger raising P0001: a failure that is not a refusal of the data (as a bug or an extension's). */
export async function failInsertsContaining(db: Db, table: 'messages' | 'items', marker: string) {
  const name = uniqueName('fail');
  await db.execute(
    sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF position('${marker}' in NEW.text) > 0 THEN RAISE EXCEPTION 'test failure'; END IF;
        RETURN NEW;
      END $$`),
  );
  await db.execute(
    sql.raw(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`),
  );
  return async () => {
    await db.execute(sql.raw(`DROP TRIGGER ${name} ON ${table}`));
    await db.execute(sql.raw(`DROP FUNCTION ${name}()`));
  };
}

export const marker = () => `poison${randomUUID().slice(0, 8)}`;
