import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { SocketEventAudience, SocketEventName, SocketEventPayload } from '@otklik/shared';
import type { Redis } from 'ioredis';
import type { Logger } from '../lib/logger';
import { redisReady } from '../lib/redis';

export type Cause = { kind: 'user' | 'rule' | 'bot' | 'system'; id?: number };

/**
 * A change that open browsers (and later: auto-rules, notifications, statistics) react to, as it travels
 * on the bus and reaches subscribers (another node may have published it). Addressed to a space (the
 * members its audience allows, packages/shared socket-events.ts), or to specific users. `cause` says who or
 * what did it, so an automation never reacts to its own action (ARCHITECTURE "Events carry their cause").
 */
export interface BusEvent {
  type: string;
  spaceId?: number;
  userIds?: number[];
  payload: Record<string, unknown>;
  cause?: Cause;
  /** The node that published it (set by the bus): work to do once, not on every node, checks it. */
  origin?: string;
}

/** The addressing an audience needs: a space for the space's members, users for `users`. */
type AddressOf<A> = A extends 'users'
  ? { spaceId?: number; userIds: number[] }
  : A extends 'nodes'
    ? { spaceId?: number; userIds?: number[] }
    : A extends 'space'
      ? { spaceId: number; userIds?: number[] }
      : { spaceId: number; userIds?: never };

/** One catalogued event as published: its name, its payload and the addressing its audience needs. */
export type EventOf<K extends SocketEventName> = {
  type: K;
  payload: SocketEventPayload<K>;
  cause?: Cause;
  origin?: string;
} & AddressOf<SocketEventAudience<K>>;

/**
 * Anything the server may publish: an unknown name, a payload of the wrong shape or a missing address is
 * a type error (the catalogue: packages/shared/src/socket-events.ts).
 */
export type PublishedEvent = { [K in SocketEventName]: EventOf<K> }[SocketEventName];

export interface EventBus {
  /** This node's id; events carry it so tests can see which node published. */
  readonly nodeId: string;
  publish(event: PublishedEvent): Promise<void>;
  subscribe(handler: (event: BusEvent) => void): () => void;
  close(): Promise<void>;
}

/** One process: events go straight to this process's subscribers. */
export class MemoryBus implements EventBus {
  readonly nodeId = randomUUID();
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(event: PublishedEvent) {
    this.emit(event);
  }

  /** Hands an event to this process's subscribers (one this node published, or one from another node). */
  emit(event: BusEvent) {
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
        this.local.emit(JSON.parse(message) as BusEvent);
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
  async publish(event: PublishedEvent) {
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
    this.local.emit(stamped);
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
