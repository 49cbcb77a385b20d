import {
  connectFields,
  DEFAULT_LOCALE,
  FEED_PROVIDER,
  getProvider,
  IMPORT_ON_CONNECT_LIMIT,
  type Locale,
  type ProviderId,
} from '@otklik/shared';
import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, objects, spaces, tariffs } from '../../db/schema';
import type { Config } from '../../lib/config';
import { randomToken, type Sealer } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { connectorContext, openCredentials, sealCredentials } from '../../providers/context';
import { networkFetch } from '../../providers/http';
import { getConnector, isConnectable } from '../../providers/registry';
import { ConnectorError, failureParam, storedFailure, type VerifiedAccount } from '../../providers/types';
import { chooseUpdatesMode, webhookUrl } from '../../providers/updates';
import type { EventBus } from '../../realtime/bus';
import { type AuditActor, audit } from '../audit/record';
import { ingest } from '../inbox/ingest/ingest';
import { assertIdsInSpace } from '../organisation/queries';
import { presentAccount } from './presenter';

// Connecting an account (docs/product/screens-and-routes.md settings/accounts/add): catalogue and tariff checks, the network's own
// set-up (tokens, the sandbox's seed), then the import of recent content (docs/product/limits.md: up to 100 items).

export interface AccountDeps {
  db: Db;
  bus: EventBus;
  sealer: Sealer;
  config: Config;
  log: Logger;
}

/** A network can be connected here when it is offered and a connector exists for it. */
export function assertConnectable(provider: ProviderId) {
  const entry = getProvider(provider);
  if (entry.hidden)
    throw new AppError(400, 'field.invalid', {
      errorType: 'validation',
      fields: { provider: 'field.invalid' },
    });
  if (!isConnectable(provider)) {
    throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
  }
}

/**
 * Checks what the administrator typed (bot token, keys) with the network itself, before anything is
 * stored: a wrong token answers with the network's own text.
 */
export async function verifyTypedCredentials(
  deps: Pick<AccountDeps, 'config'>,
  provider: ProviderId,
  input: Record<string, string> | undefined,
): Promise<VerifiedAccount | undefined> {
  const connector = getConnector(provider);
  if (!connector?.verifyCredentials) return undefined;
  const typed = Object.fromEntries(Object.entries(input ?? {}).map(([k, v]) => [k, String(v).trim()]));
  const missing = connectFields(provider).filter((f) => f.required && !typed[f.name]);
  if (missing.length > 0) {
    throw new AppError(400, 'field.required', {
      errorType: 'validation',
      fields: Object.fromEntries(missing.map((f) => [`credentials.${f.name}`, 'field.required'])),
    });
  }
  try {
    return await connector.verifyCredentials(
      { config: deps.config, fetch: networkFetch(deps.config), now: () => new Date() },
      typed,
    );
  } catch (error) {
    throw asConnectFailure(error);
  }
}

/** A network's refusal while connecting, as a 400 carrying the network's own text. */
export function asConnectFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError(400, 'account.connectFailed', {
    errorType: error instanceof ConnectorError ? `network_${error.kind}` : 'network_error',
    params: { reason: failureParam(error) },
  });
}

/** Serialises connects per space (row lock) so two at once cannot pass the tariff's account limit. */
async function assertAccountLimit(db: Db, spaceId: number) {
  const [limit] = await db
    .select({ maxAccounts: tariffs.maxAccounts })
    .from(spaces)
    .innerJoin(tariffs, eq(tariffs.id, spaces.tariffId))
    .where(eq(spaces.id, spaceId))
    .for('update', { of: spaces });
  if (!limit) throw new AppError(404, 'error.notFound');
  if (limit.maxAccounts === null) return;
  // Monitoring feeds are stored as accounts of provider `rss` with their own limit (monitoring/feeds): the
  // tariff counts network accounts only.
  const [used] = await db
    .select({ n: count() })
    .from(objects)
    .where(and(eq(objects.spaceId, spaceId), ne(objects.provider, FEED_PROVIDER)));
  if ((used?.n ?? 0) >= limit.maxAccounts)
    throw new AppError(400, 'error.accountLimit', { errorType: 'account_limit' });
}

export async function connectAccount(
  deps: AccountDeps,
  input: {
    provider: ProviderId;
    spaceId: number;
    name?: string;
    companyId?: number | null;
    performedBy: number;
    /** The language of the default account name (the catalogue's longName) when none is given. */
    locale?: Locale;
    /** What the network said about the account (typed credentials checked, or an OAuth exchange). */
    verified?: VerifiedAccount;
    /** Who connects it, with the request's address (the action log); else `performedBy`. */
    by?: AuditActor;
  },
) {
  assertConnectable(input.provider);
  if (input.companyId)
    await assertIdsInSpace(deps.db, companies, input.spaceId, [input.companyId], 'company_id');
  const connector = getConnector(input.provider)!;
  const entry = getProvider(input.provider);
  const { object, reveal } = await deps.db.transaction(async (trx) => {
    const tx = trx as unknown as Db;
    await assertAccountLimit(tx, input.spaceId);
    const verified = input.verified;
    const [row] = await tx
      .insert(objects)
      .values({
        spaceId: input.spaceId,
        provider: input.provider,
        name: input.name ?? verified?.name ?? entry.longName[input.locale ?? DEFAULT_LOCALE],
        companyId: input.companyId ?? null,
        externalId: verified?.externalId ?? null,
        screenName: verified?.screenName ?? null,
        image: verified?.image ?? null,
        url: verified?.url ?? null,
      })
      .returning();
    const setUp = (await connector.connect?.(connectorContext({ ...deps, db: tx }, row!))) ?? {};
    // Networks that push to us get a per-account webhook secret, kept with the credentials.
    const credentials = verified
      ? { ...verified.credentials, ...setUp.credentials, webhook_secret: randomToken(24) }
      : setUp.credentials;
    const [saved] = await tx
      .update(objects)
      .set({
        credentials: credentials ? sealCredentials(deps.sealer, credentials) : null,
        ingestTokenDigest: setUp.ingestTokenDigest ?? null,
        updatesMode: connector.activate ? chooseUpdatesMode(deps.config, connector) : null,
      })
      .where(eq(objects.id, row!.id))
      .returning();
    return { object: saved!, reveal: setUp.reveal ?? {} };
  });
  try {
    await activateAccount(deps, object);
  } catch (error) {
    // Subscribing to the network's updates failed: nothing half-connected stays behind.
    await deps.db.delete(objects).where(eq(objects.id, object.id));
    throw asConnectFailure(error);
  }
  await audit(deps.db, input.by ?? { userId: input.performedBy }, {
    spaceId: object.spaceId,
    kind: 'account.connected',
    target: { type: 'account', id: object.id, label: object.name },
    after: { provider: object.provider, name: object.name, screen_name: object.screenName },
  });
  const { imported, error } = await importRecent(deps, object);
  // A failed import is the account's error from its first moment: colleagues' screens show it too.
  const created = error ? { ...object, ...error } : object;
  await deps.bus.publish({
    type: 'objects.created',
    spaceId: object.spaceId,
    payload: { objects: [presentAccount(created)] },
    cause: { kind: 'user', id: input.performedBy },
  });
  return { object: created, reveal, imported };
}

/** The first look at a new account is not empty: its recent content, through the one ingestion path. */
async function importRecent(
  deps: AccountDeps,
  object: typeof objects.$inferSelect,
): Promise<{ imported: number; error?: { error: string; errorAt: Date } }> {
  const connector = getConnector(object.provider);
  if (!connector?.importRecent) return { imported: 0 };
  try {
    const events = await connector.importRecent(connectorContext(deps, object), IMPORT_ON_CONNECT_LIMIT);
    const result = await ingest(deps, object, events.slice(0, IMPORT_ON_CONNECT_LIMIT));
    if (result.invalid.length > 0) {
      // Events that could not be stored became the account's error (ingest.ts): shown from the start.
      const [row] = await deps.db
        .select({ error: objects.error, errorAt: objects.errorAt })
        .from(objects)
        .where(eq(objects.id, object.id));
      if (row?.error && row.errorAt)
        return { imported: result.created, error: { error: row.error, errorAt: row.errorAt } };
    }
    return { imported: result.created };
  } catch (error) {
    // The account is connected either way; the import shows up as the account's error.
    const message = error instanceof Error ? error.message : String(error);
    deps.log.warn({ objectId: object.id, err: message }, 'Import on connect failed');
    const [row] = await deps.db
      .update(objects)
      .set({ error: storedFailure(error), errorAt: sql`now()` })
      .where(eq(objects.id, object.id))
      .returning({ error: objects.error, errorAt: objects.errorAt });
    return { imported: 0, error: { error: row?.error ?? message, errorAt: row?.errorAt ?? new Date() } };
  }
}

/**
 * Subscribes an account to its network's updates: the webhook with its secret where the network can
 * reach us, otherwise polling (the lease is reset so a node picks the account up at once).
 */
export async function activateAccount(deps: AccountDeps, object: typeof objects.$inferSelect) {
  const connector = getConnector(object.provider);
  if (!connector?.activate || !object.updatesMode) return;
  const credentials = openCredentials(deps.sealer, object);
  await connector.activate(connectorContext(deps, object), {
    mode: object.updatesMode === 'webhook' ? 'webhook' : 'polling',
    webhookUrl: webhookUrl(deps.config, object),
    webhookSecret: credentials.webhook_secret ?? '',
  });
  await deps.db
    .update(objects)
    .set({ pollLeaseNode: null, pollLeaseUntil: null })
    .where(and(eq(objects.id, object.id)));
}

/**
 * Reconnecting with new credentials (a token was revoked, a bot re-created): the same account row, so
 * its content and history stay; the error clears and updates start again.
 */
export async function reconnectAccount(
  deps: AccountDeps,
  object: typeof objects.$inferSelect,
  verified: VerifiedAccount,
) {
  const previous = openCredentials(deps.sealer, object);
  const credentials = { ...verified.credentials, webhook_secret: previous.webhook_secret ?? randomToken(24) };
  const connector = getConnector(object.provider);
  const [saved] = await deps.db
    .update(objects)
    .set({
      credentials: sealCredentials(deps.sealer, credentials),
      externalId: verified.externalId,
      screenName: verified.screenName ?? object.screenName,
      image: verified.image ?? object.image,
      error: null,
      errorAt: null,
      isActive: true,
      updatesMode: connector?.activate ? chooseUpdatesMode(deps.config, connector) : object.updatesMode,
    })
    .where(eq(objects.id, object.id))
    .returning();
  try {
    await activateAccount(deps, saved!);
  } catch (error) {
    throw asConnectFailure(error);
  }
  return saved!;
}
