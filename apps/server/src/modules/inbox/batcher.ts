import type { Db } from '../../db/client';
import type { EventBus } from '../../realtime/bus';
import { type IngestResult, ingest, type ObjectRow } from './ingest';

interface Pending {
  events: unknown[];
  resolve: (result: IngestResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Groups events that arrive at the same moment for one account (a webhook burst, many nodes of one
 * network's delivery) into one ingest() call: a few multi-row statements instead of a transaction per
 * request. Each caller still waits until its own events are committed, so a webhook is answered only
 * after its content is stored and nothing is lost on a crash. Batches of one account run in order.
 */
export class IngestBatcher {
  private readonly queues = new Map<number, { object: ObjectRow; pending: Pending[]; running: boolean }>();

  constructor(
    private readonly deps: { db: Db; bus: EventBus },
    private readonly opts: { maxBatch: number; lingerMs: number } = { maxBatch: 500, lingerMs: 5 },
  ) {}

  submit(object: ObjectRow, events: unknown[]): Promise<IngestResult> {
    if (events.length === 0) return Promise.resolve(emptyResult());
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(object.id);
      if (!queue) {
        queue = { object, pending: [], running: false };
        this.queues.set(object.id, queue);
      }
      queue.object = object;
      queue.pending.push({ events, resolve, reject });
      if (!queue.running) {
        queue.running = true;
        setTimeout(() => void this.drain(object.id), this.opts.lingerMs);
      }
    });
  }

  private async drain(objectId: number) {
    const queue = this.queues.get(objectId);
    if (!queue) return;
    while (queue.pending.length > 0) {
      const batch: Pending[] = [];
      let size = 0;
      while (
        queue.pending.length > 0 &&
        (batch.length === 0 || size + queue.pending[0]!.events.length <= this.opts.maxBatch)
      ) {
        const next = queue.pending.shift()!;
        batch.push(next);
        size += next.events.length;
      }
      try {
        const result = await ingest(
          this.deps,
          queue.object,
          batch.flatMap((p) => p.events),
        );
        // Every caller learns the batch's outcome; invalid indexes are shifted back to its own events.
        let offset = 0;
        for (const p of batch) {
          const own = result.invalid
            .filter((i) => i.index >= offset && i.index < offset + p.events.length)
            .map((i) => ({ ...i, index: i.index - offset }));
          p.resolve({ ...result, invalid: own });
          offset += p.events.length;
        }
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
    queue.running = false;
    this.queues.delete(objectId);
  }
}

function emptyResult(): IngestResult {
  return { created: 0, duplicates: 0, excluded: 0, updated: 0, invalid: [], itemIds: [], messageIds: [] };
}
