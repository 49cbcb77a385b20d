import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { CallbackServer, EmulatedGroup } from './emulator-state';
import { newKey } from './emulator-state';

// TEST-ONLY. How the emulated VK tells a community's apps about things (PROVIDERS §2): POSTs to each
// confirmed Callback API server that subscribed to the type (JSON with `secret`, expecting `ok`), the
// `confirmation` handshake when a server is added, and the Bots Long Poll queue with its failed codes.

export interface VkUpdate {
  type: string;
  event_id: string;
  v: string;
  object: Record<string, unknown>;
  group_id: number;
}

export interface Delivery {
  serverId: number;
  type: string;
  eventId: string;
  status: number;
  body: string;
}

export class EventDispatcher {
  readonly deliveries: Delivery[] = [];
  private readonly pending = new Set<Promise<unknown>>();

  /** Resolves when every push and handshake started so far has finished. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise)).catch(() => {});
    return promise;
  }

  /** The confirmation handshake: VK posts {type:'confirmation'} and expects the code as the body. */
  confirm(group: EmulatedGroup, server: CallbackServer): Promise<void> {
    server.status = 'wait';
    return this.track(
      (async () => {
        const answer = await this.post(server.url, {
          type: 'confirmation',
          group_id: group.id,
          secret: server.secret_key,
        });
        server.status = answer.status === 200 && answer.body === group.confirmationCode ? 'ok' : 'failed';
      })(),
    );
  }

  /** A new event of `group`: pushed to its confirmed servers and queued for its long poll. */
  async emit(group: EmulatedGroup, type: string, object: Record<string, unknown>): Promise<VkUpdate> {
    const update: VkUpdate = {
      type,
      event_id: randomBytes(20).toString('hex'),
      v: group.longPoll.api_version,
      object,
      group_id: group.id,
    };
    const lp = group.longPoll;
    if (lp.enabled && lp.events.has(type)) {
      lp.history.push({ ts: lp.ts, update: { ...update, v: lp.api_version } });
      lp.ts += 1;
      for (const wake of lp.waiters) wake();
    }
    await this.deliver(group, update);
    return update;
  }

  /** Pushes `update` (again) to every confirmed server subscribed to its type. */
  deliver(group: EmulatedGroup, update: VkUpdate): Promise<Delivery[]> {
    const servers = group.servers.filter((s) => s.status === 'ok' && s.events.has(update.type));
    return this.track(
      Promise.all(
        servers.map(async (server) => {
          const answer = await this.post(server.url, {
            ...update,
            v: server.api_version,
            secret: server.secret_key,
          });
          const delivery = { serverId: server.id, type: update.type, eventId: update.event_id, ...answer };
          this.deliveries.push(delivery);
          return delivery;
        }),
      ),
    );
  }

  private async post(url: string, body: Record<string, unknown>) {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.text() };
    } catch (error) {
      return { status: 0, body: String(error) };
    }
  }

  /** GET {server}?act=a_check&key&ts&wait (PROVIDERS §2 "Bots Long Poll"). */
  async longPoll(group: EmulatedGroup, url: URL, res: ServerResponse) {
    const lp = group.longPoll;
    const answer = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.searchParams.get('act') !== 'a_check') return answer({ failed: 2 });
    if (lp.lost) {
      lp.lost = false;
      return answer({ failed: 3 });
    }
    if (!lp.enabled || url.searchParams.get('key') !== lp.key) return answer({ failed: 2 });
    const ts = Number(url.searchParams.get('ts'));
    const oldest = lp.history[0]?.ts ?? lp.ts;
    if (!Number.isInteger(ts) || ts > lp.ts || ts < oldest) return answer({ failed: 1, ts: String(lp.ts) });
    const wait = Math.min(Number(url.searchParams.get('wait') ?? 25), 90) * 1000;
    if (ts === lp.ts && wait > 0) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          lp.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, wait);
        lp.waiters.add(done);
        res.on('close', done);
      });
    }
    if (res.destroyed) return;
    const updates = lp.history.filter((entry) => entry.ts >= ts).map((entry) => entry.update);
    answer({ ts: String(lp.ts), updates });
  }

  /** Test control: the current key stops working (a_check → failed 2). */
  expireKey(group: EmulatedGroup) {
    group.longPoll.key = newKey();
  }
}
