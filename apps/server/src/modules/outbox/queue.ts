import { FAILED_ACTION_KINDS } from '@otklik/shared';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { outbox } from '../../db/schema';
import type { EventBus } from '../../realtime/bus';

// The outbox: every network call an operator, rule or bot causes is a row here first (written in the
// same transaction as what it records), then the worker (outbox-worker.ts) makes the call with
// retries. Nothing is lost when a network is slow or down, and the request never waits for it.

/** Every kind of network call the outbox makes: the wire's list of failed-action kinds is this list. */
export const OUTBOX_ACTIONS = FAILED_ACTION_KINDS;
export type OutboxAction = (typeof OUTBOX_ACTIONS)[number];

/** Actions that deliver something we wrote (an own item or message with a delivery state). */
export const SEND_ACTIONS: readonly OutboxAction[] = ['reply', 'direct', 'message'];

const reactionList = z.array(z.object({ value: z.string(), count: z.number(), own: z.boolean().optional() }));

/** Payloads per action: what the call needs beyond the rows it points at, and how to undo on failure. */
export const outboxPayloadSchemas = {
  moderation: z.object({
    previous: z
      .object({
        isDeleted: z.boolean().optional(),
        status: z.string().optional(),
        isHidden: z.boolean().optional(),
        isLiked: z.boolean().optional(),
      })
      .default({}),
  }),
  react: z.object({ value: z.string().nullable(), previous: reactionList.default([]) }),
  edit: z.object({ previousText: z.string() }),
  block: z.object({ authorExternalId: z.string(), until: z.string().nullable() }),
  /** Rows of answer buttons under a message (a CSI survey, a chat-bot's menu), sent only where the connector has `buttons`. */
  message: z.object({
    buttons: z.array(z.array(z.object({ label: z.string(), data: z.string() }))).optional(),
  }),
};

export const MAX_ATTEMPTS = 8;
/** Waits after temporary failures, by attempt (then the last one repeats): 5 s, 30 s, 2 min, 10 min, 1 h. */
export const BACKOFF_SECONDS = [5, 30, 120, 600, 3_600] as const;

export function backoffSeconds(attempt: number): number {
  return BACKOFF_SECONDS[Math.min(Math.max(attempt, 1), BACKOFF_SECONDS.length) - 1]!;
}

export async function enqueueOutbox(
  db: Db,
  row: {
    spaceId: number;
    objectId: number;
    action: OutboxAction;
    itemId?: number | null;
    messageId?: number | null;
    chatId?: number | null;
    payload?: Record<string, unknown>;
    userId?: number | null;
    /** Not before this time: a composer reply is held for its undo window (actions/undo-send.ts). */
    runAt?: Date;
  },
) {
  const [queued] = await db
    .insert(outbox)
    .values({ ...row, payload: row.payload ?? {}, runAt: row.runAt ?? new Date() })
    .returning();
  return queued!;
}

/** Wakes the outbox workers of every node (addressed to no user, so no socket gets it). */
export async function kickOutbox(bus: EventBus) {
  await bus.publish({ type: OUTBOX_QUEUED, userIds: [], payload: {}, cause: { kind: 'system' } });
}

export const OUTBOX_QUEUED = 'outbox.queued';

/** An outgoing action failed for good: `{ object_id, action, item_id, chat_id, author_id }`. */
export const OUTBOX_FAILED = 'objects.failed';
/** Someone acknowledged a failed action (settings/errors): `{ object_id, id }`. */
export const OUTBOX_DISMISSED = 'objects.failure_dismissed';
