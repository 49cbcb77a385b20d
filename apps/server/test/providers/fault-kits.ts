import { AvitoTestbed } from './avito';
import type { Fault, FaultyNetwork } from './faulty-network';
import { connectBot, customer, newBot, privateChat, TelegramWorld } from './telegram';
import type { ProviderTestbed } from './testbed';
import { connectCommunity, VkWorld } from './vk';

// TEST-ONLY: each network of the network-faults table (jobs/network-faults.test.ts) as the table needs
// it: its testbed started with every address at its emulator going through the fault proxy, the call
// that carries a reply, how the network says "too many requests", and a conversation to write into.

/** The request timeout the faults run with: a call the network never answers fails after this. */
export const FAULT_TIMEOUT_MS = 300;

export interface FaultKit {
  name: string;
  bed: ProviderTestbed;
  /** `METHOD path` of the call that carries a reply. */
  send: RegExp;
  /** The network's own 429 (Telegram says how long in its JSON), and the wait it asks for in seconds. */
  tooMany: { fault: Fault; seconds: number };
  /** A new conversation with a customer, and our message written into it; gives the message id. */
  write(text: string): Promise<number>;
}

/** Starts the testbed with its emulator behind `proxy` (every emulator address in its env rewritten). */
async function behind<T extends ProviderTestbed>(bed: T, proxy: FaultyNetwork, emulatorUrl: () => string) {
  const env = bed.options.env;
  bed.options.env = () => ({
    ...proxy.rewrite(env(), emulatorUrl()),
    NETWORK_TIMEOUT_MS: String(FAULT_TIMEOUT_MS),
  });
  await bed.start();
  return bed;
}

const retryAfter = (seconds: number): Fault => ({ kind: 'status', status: 429, retryAfter: seconds });

async function telegram(proxy: FaultyNetwork): Promise<FaultKit> {
  const world = new TelegramWorld();
  await behind(world, proxy, () => world.tg.url);
  const seconds = 17;
  return {
    name: 'Telegram',
    bed: world,
    send: /^POST \/bot[^/]+\/sendMessage$/,
    tooMany: {
      seconds,
      fault: {
        kind: 'status',
        status: 429,
        body: JSON.stringify({
          ok: false,
          error_code: 429,
          description: `Too Many Requests: retry after ${seconds}`,
          parameters: { retry_after: seconds },
        }),
      },
    },
    async write(text) {
      const bot = newBot(world.tg);
      const { account } = await connectBot(world, bot.token);
      const anna = customer();
      await world.tg.deliver(bot.token, {
        message: world.tg.customerMessage(bot.token, { chat: privateChat(anna), from: anna, text: 'Hi' }),
      });
      const chat = await world.chatOf(account.id, String(anna.id));
      return world.writeFromInbox(chat!.id, text);
    },
  };
}

async function avito(proxy: FaultyNetwork): Promise<FaultKit> {
  const bed = new AvitoTestbed();
  await behind(bed, proxy, () => bed.emu.url);
  return {
    name: 'Avito',
    bed,
    send: /^POST \/messenger\/v1\/accounts\/\d+\/chats\/[^/]+\/messages$/,
    tooMany: { seconds: 45, fault: retryAfter(45) },
    async write(text) {
      const account = await bed.connectAccount();
      await bed.emu.pushMessage({
        accountId: account.userId,
        chatId: account.chatId,
        author: account.customer,
        text: 'Торг уместен?',
      });
      const chat = await bed.chatOf(account.id, account.chatId);
      return bed.writeFromInbox(chat!.id, text);
    },
  };
}

async function vk(proxy: FaultyNetwork): Promise<FaultKit> {
  const world = new VkWorld();
  await behind(world, proxy, () => world.emu.url);
  return {
    name: 'VK',
    bed: world,
    send: /^POST \/method\/messages\.send$/,
    // VK never answers HTTP 429: "too many requests per second" is error 6 in a 200 (PROVIDERS §2).
    tooMany: {
      seconds: 1,
      fault: {
        kind: 'status',
        status: 200,
        body: JSON.stringify({ error: { error_code: 6, error_msg: 'Too many requests per second' } }),
      },
    },
    async write(text) {
      const community = await connectCommunity(world);
      world.headers = community.workspace.headers;
      world.spaceId = community.workspace.space.id;
      await world.emu.userWrites(community.groupId, { from: community.customer.id, text: 'Привет' });
      const chat = await world.chatOf(community.object.id, String(community.customer.id));
      return world.writeFromInbox(chat!.id, text);
    },
  };
}

export const FAULT_KITS: Array<{ name: string; start(proxy: FaultyNetwork): Promise<FaultKit> }> = [
  { name: 'Telegram', start: telegram },
  { name: 'Avito', start: avito },
  { name: 'VK', start: vk },
];
