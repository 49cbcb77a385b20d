import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { Logger } from '../lib/logger';
import { redisReady } from '../lib/redis';

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

/** Several nodes: every event goes through Redis pub/sub, so a socket on any node sees it. */
export class RedisBus implements EventBus {
  readonly nodeId = randomUUID();
  private readonly local = new MemoryBus();
  private readonly subscriber: Redis;
  private ready: Promise<unknown>;
  private degraded = false;

  constructor(
    private readonly publisher: Redis,
    private readonly log?: Logger,
    /** The pub/sub channel (REDIS_KEY_PREFIX + `events`): installs sharing a Redis server keep apart. */
    private readonly channel = 'otklik:events',
  ) {
    this.subscriber = publisher.duplicate();
    this.subscriber.on('error', () => {});
    this.subscriber.on('message', (_channel: string, message: string) => {
      try {
        void this.local.publish(JSON.parse(message) as BusEvent);
      } catch {
        // A malformed message on our channel is not ours to act on.
      }
    });
    // A bus closed before its subscription is made (a short-lived process, a test) must not leave the
    // rejection unhandled; ioredis subscribes again by itself after a reconnect.
    this.ready = this.subscriber.subscribe(this.channel).catch((error: unknown) => this.noteDegraded(error));
  }

  /**
   * Never fails: events are published after their change is committed, so a Redis outage must not turn
   * a done write into an error. While Redis is away the event reaches this node's own subscribers only
   * (other nodes' sockets miss it and catch up on their next load); publishing resumes by itself.
   */
  async publish(event: BusEvent) {
    const stamped = { ...event, origin: event.origin ?? this.nodeId };
    if (redisReady(this.publisher)) {
      try {
        await this.ready;
        await this.publisher.publish(this.channel, JSON.stringify(stamped));
        if (this.degraded) this.log?.info('Redis is back: events reach every node again');
        this.degraded = false;
        return;
      } catch (error) {
        this.noteDegraded(error);
      }
    } else this.noteDegraded(new Error(`Redis connection is ${this.publisher.status}`));
    await this.local.publish(stamped);
  }

  private noteDegraded(error: unknown) {
    if (this.degraded) return;
    this.degraded = true;
    this.log?.warn({ err: String(error) }, 'Redis is unavailable: events reach this node only');
  }

  subscribe(handler: (event: BusEvent) => void) {
    return this.local.subscribe(handler);
  }

  async close() {
    await this.local.close();
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}
