import { getProvider, isProviderId, parseAccountSettings } from '@otklik/shared';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, objects, outbox } from '../../db/schema';
import { randomToken, sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { connectorContext, openCredentials, sealCredentials } from '../../providers/context';
import { newIngestToken } from '../../providers/generic/connector';
import { getConnector } from '../../providers/registry';
import { sandboxUrl } from '../../providers/sandbox/connector';
import { type AuditActor, audit, changedFields } from '../audit/record';
import { scopeCondition, scopeFor } from '../inbox/read/scope';
import { assertIdsInSpace } from '../organisation/queries';
import type { ServerActor } from '../spaces/actor';
import type { AccountDeps } from './connect';
import { presentAccount } from './presenter';
import type { AccountSettingsPatch, UpdateAccountInput } from './schemas';

// Settings → accounts: rename, move to a company, per-account settings (docs/product/screens-and-routes.md exclude,
// exclude_messages, chats, stickers, reactions), disconnect, errors, tokens.

type ObjectRow = typeof objects.$inferSelect;
const byUser = (id: number) => ({ kind: 'user' as const, id });

export async function getAccount(deps: Pick<AccountDeps, 'db'>, id: number): Promise<ObjectRow | undefined> {
  const [row] = await deps.db.select().from(objects).where(eq(objects.id, id)).limit(1);
  return row;
}

async function publishAccount(deps: AccountDeps, row: ObjectRow, performedBy: number) {
  await deps.bus.publish({
    type: 'objects.updated',
    spaceId: row.spaceId,
    payload: { objects: [presentAccount(row)] },
    cause: byUser(performedBy),
  });
}

/** Settings the provider offers (catalogue `settings`); anything else is a 400 naming the field. */
function mergeSettings(row: ObjectRow, patch: AccountSettingsPatch) {
  const offered: readonly string[] = isProviderId(row.provider) ? getProvider(row.provider).settings : [];
  const unknown = Object.keys(patch).filter((key) => !offered.includes(key));
  if (unknown.length > 0) {
    throw new AppError(400, 'field.invalid', {
      errorType: 'validation',
      fields: Object.fromEntries(unknown.map((key) => [`settings.${key}`, 'field.invalid'])),
    });
  }
  return { ...parseAccountSettings(row.settings), ...patch };
}

export async function updateAccount(
  deps: AccountDeps,
  row: ObjectRow,
  input: UpdateAccountInput,
  performedBy: number,
  by: AuditActor = { userId: performedBy },
) {
  if (input.company_id)
    await assertIdsInSpace(deps.db, companies, row.spaceId, [input.company_id], 'company_id');
  const updated = await deps.db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const [saved] = await tx
      .update(objects)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.company_id !== undefined ? { companyId: input.company_id } : {}),
        ...(input.settings ? { settings: mergeSettings(row, input.settings) } : {}),
      })
      .where(eq(objects.id, row.id))
      .returning();
    const changes = changedFields(
      { name: row.name, company_id: row.companyId, settings: row.settings },
      { name: saved!.name, company_id: saved!.companyId, settings: saved!.settings },
    );
    if (Object.keys(changes.after).length > 0)
      await audit(tx, by, {
        spaceId: row.spaceId,
        kind: 'account.updated',
        target: { type: 'account', id: row.id, label: saved!.name },
        ...changes,
      });
    return saved!;
  });
  await publishAccount(deps, updated!, performedBy);
  return updated!;
}

/** Disconnects the account: its content and its outbox go with it (activity keeps the history). */
export async function deleteAccount(
  deps: AccountDeps,
  row: ObjectRow,
  performedBy: number,
  by: AuditActor = { userId: performedBy },
) {
  // Unsubscribe from the network first (delete the webhook); a network that is down must not keep the
  // account connected here, so a failure is logged and the account goes anyway.
  const connector = getConnector(row.provider);
  if (connector?.deactivate) {
    await connector.deactivate(connectorContext(deps, row)).catch((error: unknown) => {
      deps.log.warn(
        { objectId: row.id, err: error instanceof Error ? error.message : String(error) },
        'Could not unsubscribe from the network',
      );
    });
  }
  await deps.db.transaction(async (tx) => {
    await tx.delete(outbox).where(eq(outbox.objectId, row.id));
    await tx.delete(objects).where(eq(objects.id, row.id));
    await audit(tx as unknown as Db, by, {
      spaceId: row.spaceId,
      kind: 'account.removed',
      target: { type: 'account', id: row.id, label: row.name },
      before: { provider: row.provider, name: row.name, screen_name: row.screenName },
    });
  });
  await deps.bus.publish({
    type: 'objects.deleted',
    spaceId: row.spaceId,
    payload: { ids: [row.id] },
    cause: byUser(performedBy),
  });
}

/** Accounts with an error in the spaces where the actor sees errors (the errors dropdown, settings/errors). */
/** Accounts with an error the caller may see: spaces where they view errors, within their user group. */
export async function findAccountErrors(deps: Pick<AccountDeps, 'db'>, actor: ServerActor) {
  const scope = await scopeFor(deps.db, actor, 'errors.view');
  if (scope.spaces.size === 0) return [];
  return deps.db
    .select()
    .from(objects)
    .where(and(scopeCondition(scope, objects.spaceId, objects.id), isNotNull(objects.error)))
    .orderBy(asc(objects.id));
}

export async function clearAccountError(deps: AccountDeps, row: ObjectRow, performedBy: number) {
  const [updated] = await deps.db
    .update(objects)
    .set({ error: null, errorAt: null })
    .where(eq(objects.id, row.id))
    .returning();
  await publishAccount(deps, updated!, performedBy);
  return updated!;
}

/**
 * A new public token (the old one stops working at once): the ingestion token of a collector, or the
 * sandbox page address. Shown once for ingestion; the sandbox keeps it sealed to show it again.
 */
export async function rotateAccountToken(deps: AccountDeps, row: ObjectRow) {
  if (row.provider === 'sandbox') {
    const token = randomToken(24);
    const credentials = { ...openCredentials(deps.sealer, row), token };
    await deps.db
      .update(objects)
      .set({ credentials: sealCredentials(deps.sealer, credentials), ingestTokenDigest: sha256(token) })
      .where(eq(objects.id, row.id));
    return { sandbox_url: sandboxUrl(deps.config.appUrl, token) };
  }
  if (!isProviderId(row.provider) || getProvider(row.provider).connect !== 'ingest_token') {
    throw new AppError(400, 'reply.notSupported', { errorType: 'not_supported' });
  }
  const { token, digest } = newIngestToken();
  await deps.db.update(objects).set({ ingestTokenDigest: digest }).where(eq(objects.id, row.id));
  return { ingest_token: token };
}

export function getSandboxUrl(deps: AccountDeps, row: ObjectRow) {
  const token = row.provider === 'sandbox' ? openCredentials(deps.sealer, row).token : undefined;
  if (!token) throw new AppError(404, 'error.notFound');
  return { sandbox_url: sandboxUrl(deps.config.appUrl, token) };
}
