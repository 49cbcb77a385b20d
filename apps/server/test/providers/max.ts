import { randomInt } from 'node:crypto';
import { type MaxEmulator, startMaxEmulator } from '../../emulators/max/emulator';
import type { MaxMessage, MaxUser } from '../../src/providers/max/types';
import { ProviderTestbed } from './testbed';

// TEST-ONLY: the provider harness (testbed.ts) wired to the MAX emulator (it pushes to APP_URL), and
// factories for bots, people and chats.

/** The app listening on 127.0.0.1 (APP_URL at it) with MAX_API_URL at the emulator (`max`). */
export class MaxWorld extends ProviderTestbed {
  max!: MaxEmulator;

  constructor(env: Record<string, string> = {}) {
    super({
      provider: 'max',
      listen: true,
      cdn: true,
      env: () => ({ MAX_API_URL: this.max.url, PROVIDER_UPDATES: 'webhook', ...env }),
    });
  }

  override async start() {
    this.max = await startMaxEmulator();
    this.onClose(() => this.max.close());
    return super.start();
  }
}

/** `cdn` is the CDN customers' file links point at (i.max.ru), reached through the media test hook. */
export function startMaxWorld(env: Record<string, string> = {}): Promise<MaxWorld> {
  return new MaxWorld(env).start();
}

export function newBot(max: MaxEmulator) {
  const id = randomInt(1_000_000, 2_000_000_000);
  const token = max.addBot({
    user_id: id,
    first_name: 'Shop',
    name: 'Shop MAX bot',
    username: `shop${id}_bot`,
  });
  return { id, token };
}

export const person = (): MaxUser => {
  const id = randomInt(100_000, 2_000_000_000);
  return { user_id: id, first_name: 'Пётр', last_name: 'И.', name: 'Пётр И.', username: null, is_bot: false };
};

export const dialogOf = (user: MaxUser): MaxMessage['recipient'] => ({
  chat_id: user.user_id + 1,
  chat_type: 'dialog',
});

export const groupChat = (): MaxMessage['recipient'] => ({
  chat_id: -randomInt(1_000_000, 9_000_000),
  chat_type: 'chat',
});

export async function connectBot(world: MaxWorld, token: string) {
  const { account, row, credentials } = await world.connected({ access_token: token });
  return { account, row, secret: credentials.webhook_secret! };
}

export { until, workerOf } from './testbed';
