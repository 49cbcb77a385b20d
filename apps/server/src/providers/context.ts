import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Sealer } from '../lib/crypto';
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
    fetch: deps.fetch ?? fetch,
    db: deps.db,
    now: deps.now ?? (() => new Date()),
  };
}
