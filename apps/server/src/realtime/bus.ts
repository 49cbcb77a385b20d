import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

/**
 * A change that open browsers (and later: auto-rules, notifications, statistics) react to. Addressed to
 * a space (every member connected to it), or to specific users. `cause` says who or what did it, so an
 * automation never reacts to its own action (ARCHITECTURE "Events carry their cause").
 */
export interface BusEvent {
  type: string;
  spaceId?: number;
  userIds?: number[];
  payload: Record<string, unknown>;
  cause?: { kind: 'user' | 'rule' | 'bot' | 'system'; id?: number };
  /** The node that published it (set by the bus): work to do once, not on every node, checks it. */
  origin?: string;
}

export interface EventBus {
  /** This node's id; events carry it so tests can see which node published. */
  readonly nodeId: string;
  publish(event: BusEvent): Promise<void>;
  subscribe(handler: (event: BusEvent) => void): () => void;
  close(): Promise<void>;
}

/** One process: events go straight to this process's subscribers. */
export class MemoryBus implements EventBus {
  readonly nodeId = randomUUID();
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(event: BusEvent) {
    this.emitter.emit('event', event.origin ? event : { ...event, origin: this.nodeId });
  }

  subscribe(handler: (event: BusEvent) => void) {
    this.emitter.on('event', handler);
    return () => this.emitter.off('event', handler);
  }

  async close() {
    this.emitter.removeAllListeners();
  }
}

const CHANNEL = 'otklik:events';

/** Several nodes: every event goes through Redis pub/sub, so a socket on any node sees it. */
export class RedisBus implements EventBus {
  readonly nodeId = randomUUID();
  private readonly local = new MemoryBus();
  private readonly subscriber: Redis;
  private ready: Promise<unknown>;

  constructor(private readonly publisher: Redis) {
    this.subscriber = publisher.duplicate();
    this.subscriber.on('error', () => {});
    this.subscriber.on('message', (_channel: string, message: string) => {
      try {
        void this.local.publish(JSON.parse(message) as BusEvent);
      } catch {
        // A malformed message on our channel is not ours to act on.
      }
    });
    this.ready = this.subscriber.subscribe(CHANNEL);
  }

  async publish(event: BusEvent) {
    await this.ready;
    await this.publisher.publish(CHANNEL, JSON.stringify({ ...event, origin: event.origin ?? this.nodeId }));
  }

  subscribe(handler: (event: BusEvent) => void) {
    return this.local.subscribe(handler);
  }

  async close() {
    await this.local.close();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}
