import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { objects } from '../db/schema';
import type { Config } from '../lib/config';
import type { Sealer } from '../lib/crypto';
import type { Logger } from '../lib/logger';
import { PeriodicTask } from '../lib/periodic';
import { recordAccountError } from '../modules/objects/account-error';
import { connectorContext } from '../providers/context';
import { connectedProviders, getConnector } from '../providers/registry';
import { ConnectorError } from '../providers/types';
import type { EventBus } from '../realtime/bus';

// Tokens that expire unless renewed (Instagram Login: 60 days), for accounts that may go quiet for
// longer than that (a webhook-only account makes no calls of its own): every few hours each active,
// healthy account of a network with `renewToken` is offered a renewal, which the connector makes only
// when due. A refused renewal (revoked or already expired) becomes the account's error and notifies
// the administrators; a network that is down is tried again on the next tick.

export const TOKEN_REFRESH_TICK_MS = 6 * 3_600_000;

export interface TokenRefreshDeps {
  db: Db;
  bus: EventBus;
  sealer: Sealer;
  config: Config;
  log: Logger;
  fetch?: typeof fetch;
  now?: () => Date;
}

export class TokenRefreshJob {
  private readonly task: PeriodicTask;

  constructor(private readonly deps: TokenRefreshDeps) {
    this.task = new PeriodicTask('Token renewal', () => this.tick(), deps.log);
  }

  start(intervalMs = TOKEN_REFRESH_TICK_MS) {
    this.task.start(intervalMs);
  }

  stop() {
    return this.task.stop();
  }

  /** One pass; `spaceIds` narrows it (tests). Returns how many accounts failed for good. */
  async tick(opts: { spaceIds?: number[] } = {}): Promise<{ checked: number; failed: number }> {
    const providers = connectedProviders().filter((id) => getConnector(id)?.renewToken);
    if (providers.length === 0) return { checked: 0, failed: 0 };
    const rows = await this.deps.db
      .select()
      .from(objects)
      .where(
        and(
          inArray(objects.provider, providers),
          eq(objects.isActive, true),
          isNull(objects.error),
          opts.spaceIds ? inArray(objects.spaceId, opts.spaceIds) : undefined,
        ),
      );
    let failed = 0;
    for (const row of rows) {
      const connector = getConnector(row.provider)!;
      try {
        await connector.renewToken!(connectorContext(this.deps, row));
      } catch (error) {
        if (error instanceof ConnectorError && error.kind === 'auth') {
          failed += 1;
          await recordAccountError(this.deps, row.id, error.stored, this.deps.now?.() ?? new Date());
        } else
          this.deps.log.warn(
            { objectId: row.id, provider: row.provider, err: (error as Error).message },
            'Token renewal failed; tried again later',
          );
      }
    }
    return { checked: rows.length, failed };
  }
}
