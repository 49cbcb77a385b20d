import type { Db } from '../../../db/client';
import { isDeadlock } from '../../../db/sqlstate';
import type { EventBus } from '../../../realtime/bus';
import { type IngestResult, ingest, type ObjectRow } from './ingest';

interface Pending {
  events: unknown[];
  /** Only private messages: may be stored beside another such batch (see `overlap`). */
  messagesOnly: boolean;
  resolve: (result: IngestResult) => void;
  reject: (error: unknown) => void;
}

interface Queue {
  object: ObjectRow;
  pending: Pending[];
  /** Batches of this account being stored now. */
  running: number;
  /** Whether a running batch holds anything but private messages. */
  exclusive: boolean;
  lingering: boolean;
}

export interface BatcherOptions {
  maxBatch: number;
  lingerMs: number;
  /**
   * How many batches of private messages of one account may be stored at once. New messages commute
   * (the chat row lock orders them; the last message is the newest by time, unread counts add up), so
   * while one batch commits the next can already be written. Comments (thread links between rows of
   * one batch and the next) and changes (an edit of a message the batch before stores) go alone.
   * Default 1: on the 2-core benchmark machine two overlapping batches were ~10% slower than one
   * (`npm run bench -- ingest`: 1,100 vs 1,000 Telegram events/s) — PostgreSQL and Node share the cores.
   */
  overlap: number;
}

/**
 * Groups events that arrive at the same moment for one account (a webhook burst, many nodes of one
 * network's delivery) into one ingest() call: a few multi-row statements instead of a transaction per
 * request. Each caller still waits until its own events are committed, so a webhook is answered only
 * after its content is stored and nothing is lost on a crash.
 */
export class IngestBatcher {
  private readonly queues = new Map<number, Queue>();

  constructor(
    private readonly deps: { db: Db; bus: EventBus },
    private readonly opts: BatcherOptions = { maxBatch: 500, lingerMs: 5, overlap: 1 },
  ) {}

  submit(object: ObjectRow, events: unknown[]): Promise<IngestResult> {
    if (events.length === 0) return Promise.resolve(emptyResult());
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(object.id);
      if (!queue) {
        queue = { object, pending: [], running: 0, exclusive: false, lingering: false };
        this.queues.set(object.id, queue);
      }
      queue.object = object;
      queue.pending.push({ events, messagesOnly: events.every(isMessage), resolve, reject });
      if (queue.running === 0 && !queue.lingering) {
        // The first event of a quiet moment waits a little for its neighbours.
        queue.lingering = true;
        setTimeout(() => {
          queue.lingering = false;
          this.schedule(object.id);
        }, this.opts.lingerMs);
      } else if (!queue.lingering) {
        this.schedule(object.id);
      }
    });
  }

  /** Starts what may run now: one batch when idle, another beside running message batches. */
  private schedule(objectId: number) {
    const queue = this.queues.get(objectId);
    if (!queue) return;
    while (queue.pending.length > 0 && this.mayStart(queue)) {
      const batch = this.take(queue, queue.running > 0);
      if (batch.length === 0) break;
      queue.running += 1;
      const exclusive = batch.some((p) => !p.messagesOnly);
      if (exclusive) queue.exclusive = true;
      void this.run(queue, batch).finally(() => {
        queue.running -= 1;
        if (exclusive) queue.exclusive = false;
        if (queue.running === 0 && queue.pending.length === 0) this.queues.delete(objectId);
        else this.schedule(objectId);
      });
    }
  }

  private mayStart(queue: Queue) {
    if (queue.running === 0) return true;
    return !queue.exclusive && queue.running < this.opts.overlap && queue.pending[0]!.messagesOnly;
  }

  /** The next batch in arrival order; beside a running batch only message-only requests join it. */
  private take(queue: Queue, messagesOnly: boolean): Pending[] {
    const batch: Pending[] = [];
    let size = 0;
    while (queue.pending.length > 0) {
      const next = queue.pending[0]!;
      if (messagesOnly && !next.messagesOnly) break;
      if (batch.length > 0 && size + next.events.length > this.opts.maxBatch) break;
      queue.pending.shift();
      batch.push(next);
      size += next.events.length;
    }
    return batch;
  }

  private async run(queue: Queue, batch: Pending[]) {
    const store = (events: unknown[]) => withDeadlockRetry(() => ingest(this.deps, queue.object, events));
    let result: IngestResult;
    try {
      result = await store(batch.flatMap((p) => p.events));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // ingest() already isolates events the database refuses; whatever else failed the merged batch,
      // each request is stored on its own so only those it concerns are answered with the error.
      for (const p of batch) await store(p.events).then(p.resolve, p.reject);
      return;
    }
    // Every caller learns the batch's outcome; invalid indexes are shifted back to its own events.
    let offset = 0;
    for (const p of batch) {
      const own = result.invalid
        .filter((i) => i.index >= offset && i.index < offset + p.events.length)
        .map((i) => ({ ...i, index: i.index - offset }));
      p.resolve({ ...result, invalid: own });
      offset += p.events.length;
    }
  }
}

/**
 * Overlapping batches take their row locks in the same order (ingest sorts by key), so PostgreSQL
 * should never find a deadlock between them; if it does (40P01), the batch that lost is simply stored
 * again — its transaction was rolled back whole.
 */
export async function withDeadlockRetry<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isDeadlock(error)) throw error;
    }
  }
}

const isMessage = (event: unknown) =>
  typeof event === 'object' && event !== null && (event as { type?: unknown }).type === 'message';

function emptyResult(): IngestResult {
  return { created: 0, duplicates: 0, excluded: 0, updated: 0, invalid: [], itemIds: [], messageIds: [] };
}
