import { randomInt } from 'node:crypto';
import { startTelegramEmulator, type TelegramEmulator } from '../../emulators/telegram/emulator';
import type { TgChat, TgUser } from '../../src/providers/telegram/types';
import { ProviderTestbed, workerOf } from './testbed';

// TEST-ONLY: the provider harness (testbed.ts) wired to the Telegram emulator (it pushes webhooks to
// APP_URL), and factories for bots, customers and groups.

export { freePort, until, workerOf } from './testbed';

/** The app listening on 127.0.0.1 (APP_URL at it) with TELEGRAM_API_URL at the emulator (`tg`). */
export class TelegramWorld extends ProviderTestbed {
  tg!: TelegramEmulator;

  constructor(env: Record<string, string> = {}) {
    super({
      provider: 'telegram',
      listen: true,
      env: () => ({ TELEGRAM_API_URL: this.tg.url, PROVIDER_UPDATES: 'webhook', ...env }),
    });
  }

  override async start() {
    this.tg = await startTelegramEmulator();
    this.onClose(() => this.tg.close());
    return super.start();
  }
}

export function startTelegramWorld(env: Record<string, string> = {}): Promise<TelegramWorld> {
  return new TelegramWorld(env).start();
}

export function newBot(tg: TelegramEmulator) {
  const id = randomInt(1_000_000, 2_000_000_000);
  const token = `${id}:AAH${randomInt(1e9, 9e9)}secret`;
  tg.addBot(token, { id, first_name: 'Shop Bot', username: `shop${id}_bot` });
  return { id, token };
}

export function customer(): TgUser {
  const id = randomInt(100_000, 2_000_000_000);
  return { id, is_bot: false, first_name: 'Anna', last_name: 'K', username: `anna${id}` };
}

export const privateChat = (user: TgUser): TgChat => ({
  id: user.id,
  type: 'private',
  first_name: user.first_name,
  username: user.username,
});

export function discussionGroup(): { group: TgChat; channel: TgChat } {
  const n = randomInt(1_000_000, 9_999_999);
  return {
    group: { id: -1_001_000_000_000 - n, type: 'supergroup', title: 'Shop chat' },
    channel: { id: -1_002_000_000_000 - n, type: 'channel', title: 'Shop news', username: `shopnews${n}` },
  };
}

/**
 * Customers writing to `bot` in private: `write(user, text)` delivers the user's message, runs the
 * arrival rules (`rules`) and the outbox, and gives the texts the bot has sent that user so far.
 */
export function botChat(world: TelegramWorld, bot: { token: string }, rules: { drain(): Promise<unknown> }) {
  return async (user: TgUser, text: string) => {
    await world.tg.deliver(bot.token, {
      message: world.tg.customerMessage(bot.token, { chat: privateChat(user), from: user, text }),
    });
    await rules.drain();
    await workerOf(world).run();
    return world.tg
      .callsOf('sendMessage')
      .filter((c) => c.token === bot.token && String(c.params.chat_id) === String(user.id))
      .map((c) => c.params.text);
  };
}

export async function connectBot(world: TelegramWorld, token: string) {
  const { account, row, credentials } = await world.connected({ bot_token: token });
  return { account, row, secret: credentials.webhook_secret! };
}
