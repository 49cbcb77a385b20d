import { encodeFailure } from '@otklik/shared';
import { and, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { objects } from '../db/schema';
import type { Config } from '../lib/config';
import type { Sealer } from '../lib/crypto';
import type { Logger } from '../lib/logger';
import { networkFetch } from './http';
import type { ConnectorContext, ObjectRow } from './types';

export interface ConnectorDeps {
  db: Db;
  sealer: Sealer;
  config: Config;
  fetch?: typeof fetch;
  now?: () => Date;
}

// Opened credentials per account row object: a webhook burst reuses one cached row (webhooks.ts), so
// its credentials are decrypted once, not per request. A changed account is a new row object.
const opened = new WeakMap<ObjectRow, { sealer: Sealer; credentials: Record<string, string> }>();

/** An account's credentials, opened; `{}` when it has none or they cannot be opened (rotated key). */
export function openCredentials(sealer: Sealer, object: ObjectRow): Record<string, string> {
  const hit = opened.get(object);
  if (hit && hit.sealer === sealer) return { ...hit.credentials };
  const credentials = openSealed(sealer, object);
  opened.set(object, { sealer, credentials });
  return { ...credentials };
}

function openSealed(sealer: Sealer, object: ObjectRow): Record<string, string> {
  if (!object.credentials) return {};
  try {
    const parsed: unknown = JSON.parse(sealer.open(object.credentials));
    if (!parsed || typeof parsed !== 'object') return {};
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
  } catch {
    return {};
  }
}

export function sealCredentials(sealer: Sealer, credentials: Record<string, string>): string {
  return sealer.seal(JSON.stringify(credentials));
}

export function connectorContext(deps: ConnectorDeps, object: ObjectRow): ConnectorContext {
  return {
    object,
    credentials: openCredentials(deps.sealer, object),
    config: deps.config,
    fetch: networkFetch(deps.config, deps.fetch),
    db: deps.db,
    now: deps.now ?? (() => new Date()),
    async saveCredentials(credentials) {
      await deps.db
        .update(objects)
        .set({ credentials: sealCredentials(deps.sealer, credentials) })
        .where(eq(objects.id, object.id));
    },
  };
}

/** The account error of credentials this server cannot open (SECRET_KEY changed since they were sealed). */
export const UNREADABLE_CREDENTIALS_ERROR = encodeFailure({ key: 'failure.unreadableCredentials' });

/**
 * At start: every account whose stored credentials this server's key cannot open gets that as its
 * error, so the errors dropdown says what is wrong instead of each connector failing with the
 * network's "unauthorised" (openCredentials hands connectors `{}` for such an account). Returns the ids.
 */
export async function markUnreadableCredentials(db: Db, sealer: Sealer, log: Logger): Promise<number[]> {
  const rows = await db
    .select({ id: objects.id, credentials: objects.credentials })
    .from(objects)
    .where(isNotNull(objects.credentials));
  const unreadable = rows
    .filter((row) => {
      try {
        sealer.open(row.credentials!);
        return false;
      } catch {
        return true;
      }
    })
    .map((row) => row.id);
  if (unreadable.length === 0) return [];
  await db
    .update(objects)
    .set({ error: UNREADABLE_CREDENTIALS_ERROR, errorAt: sql`now()` })
    .where(
      and(
        inArray(objects.id, unreadable),
        or(isNull(objects.error), sql`${objects.error} <> ${UNREADABLE_CREDENTIALS_ERROR}`),
      ),
    );
  log.warn(
    { accounts: unreadable.length },
    'Accounts whose credentials this SECRET_KEY cannot open; they need reconnecting (see Settings → Errors)',
  );
  return unreadable;
}
