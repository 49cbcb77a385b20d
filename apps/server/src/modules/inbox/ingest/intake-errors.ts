import type { Db } from '../../../db/client';
import type { EventBus } from '../../../realtime/bus';
import { recordAccountError } from '../../objects/account-error';
import type { ObjectRow } from './ingest';

// Incoming events that could not be stored (ingest.ts) become the account's error, so a lost customer
// message is seen in the errors dropdown and settings/errors instead of only in the server log.

/** How an intake error starts: pollers.ts clears the errors polling set, never these (an admin does). */
export const INTAKE_ERROR_PREFIX = 'Incoming events not stored';

export const isIntakeError = (error: string | null) => error?.startsWith(INTAKE_ERROR_PREFIX) ?? false;

export interface IntakeFailure {
  index: number;
  error: string;
  /** The event as parsed, or as it came when it failed validation. */
  event: unknown;
}

const MAX_ERROR_CHARS = 1_000;

/** What the event was on its network, to find it there: its kind and ids. */
function describe(event: unknown): string {
  if (!event || typeof event !== 'object') return 'an event';
  const e = event as Record<string, unknown>;
  const id = typeof e.externalId === 'string' ? e.externalId : '?';
  if (e.type === 'message')
    return `message ${id}${typeof e.chatExternalId === 'string' ? ` in chat ${e.chatExternalId}` : ''}`;
  if (e.type === 'item') return `${typeof e.kind === 'string' ? e.kind : 'item'} ${id}`;
  if (e.type === 'change') return `change of ${id}`;
  return `event ${id}`;
}

export async function recordIntakeFailures(
  deps: { db: Db; bus: EventBus },
  object: ObjectRow,
  failures: IntakeFailure[],
  total: number,
) {
  const first = failures[0];
  if (!first) return;
  const text = `${INTAKE_ERROR_PREFIX}: ${failures.length} of ${total} from the network; ${describe(first.event)}: ${first.error}`;
  await recordAccountError(deps, object.id, text.slice(0, MAX_ERROR_CHARS));
}
