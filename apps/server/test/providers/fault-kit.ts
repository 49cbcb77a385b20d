import type { ProviderId } from '@otklik/shared';
import type { Fault, FaultyNetwork } from './faulty-network';
import { ProviderTestbed } from './testbed';

// TEST-ONLY: what every kit of the network-faults table (jobs/network-faults.test.ts) is made of; the
// kits themselves are in fault-kits*.ts, by group of networks.

/** The request timeout the faults run with: a call the network never answers fails after this. */
export const FAULT_TIMEOUT_MS = 2_000;

export interface FaultKit {
  name: string;
  bed: ProviderTestbed;
  /** `METHOD path` of the call that carries a reply. */
  send: RegExp;
  /** The network's own 429 (Telegram says how long in its JSON), and the wait it asks for in seconds. */
  tooMany: { fault: Fault; seconds: number };
  /** A new conversation with a customer (or a comment, a review) and our answer written into it. */
  write(text: string): Promise<Written>;
}

/** A row of the table: the network's name and how its kit is started behind the proxy. */
export interface KitEntry {
  name: string;
  start(proxy: FaultyNetwork): Promise<FaultKit>;
  /**
   * Why a 200 answering the reply cannot be checked, when it cannot: the network's answer to it is not
   * documented (or is a bare 200) and nothing of it is read, so a garbage 200 cannot be told from a
   * delivery. The table skips its two garbage cases, saying so.
   */
  answerUnchecked?: string;
}

/** Our answer: a message in a chat, or a reply (an item of our own) under a comment or review. */
export interface Written {
  kind: 'message' | 'item';
  id: number;
}

export const message = async (id: Promise<number>): Promise<Written> => ({ kind: 'message', id: await id });

/**
 * Starts the testbed with its emulator behind `proxy` (every emulator address in its env rewritten, but
 * the keys in `direct`, which keep talking to the emulator itself).
 */
export async function behind<T extends ProviderTestbed>(
  bed: T,
  proxy: FaultyNetwork,
  emulatorUrl: () => string,
  direct: string[] = [],
) {
  const env = bed.options.env;
  bed.options.env = () => {
    const own = env();
    const kept = Object.fromEntries(direct.map((key) => [key, own[key]!]));
    return { ...proxy.rewrite(own, emulatorUrl()), ...kept, NETWORK_TIMEOUT_MS: String(FAULT_TIMEOUT_MS) };
  };
  await bed.start();
  return bed;
}

/** A network's own 429: its body (as JSON) and, where it sends them, Retry-After and headers of its own. */
export const tooManyRequests = (
  body?: unknown,
  opts: { retryAfter?: number; headers?: () => Record<string, string> } = {},
): Fault => ({
  kind: 'status',
  status: 429,
  ...opts,
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

export const retryAfter = (seconds: number): Fault => tooManyRequests(undefined, { retryAfter: seconds });

/** Our reply under an item (a comment, a post, a review) through the inbox, as an item of our own. */
export async function replyTo(bed: ProviderTestbed, itemId: number, text: string): Promise<Written> {
  const replied = await bed.inject('POST', `/v1/items/${itemId}/reply`, { text });
  if (replied.statusCode !== 200) throw new Error(replied.body);
  return { kind: 'item', id: replied.json().reply.id as number };
}

/**
 * The testbed of a network whose own tests build theirs inline (X, TikTok, Threads, ...): its emulator
 * started first (`env` reads it), closed after the app.
 */
export class EmulatorTestbed<E extends { url: string; close(): Promise<unknown> }> extends ProviderTestbed {
  emu!: E;

  constructor(
    provider: ProviderId,
    private readonly startEmulator: () => Promise<E>,
    env: (emu: E) => Record<string, string>,
    opts: { listen?: boolean } = {},
  ) {
    super({ provider, ...opts, env: () => env(this.emu) });
  }

  override async start() {
    const emu = await this.startEmulator();
    this.emu = emu;
    this.onClose(() => emu.close());
    return super.start();
  }
}

/** The OAuth popup answered and handed to the app (POST /v1/{provider}/auth): the new account's id. */
export async function connectByPopup(bed: ProviderTestbed, popup = () => bed.popup()) {
  const res = await bed.finish(await popup());
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json().object.id as number;
}
