import { AvitoTestbed } from './avito';

export type { FaultKit, Written } from './fault-kit';

import {
  behind,
  type FaultKit,
  type KitEntry,
  message,
  replyTo,
  retryAfter,
  tooManyRequests,
} from './fault-kit';
import { RELAY_KITS } from './fault-kits-relays';
import { REVIEW_KITS } from './fault-kits-reviews';
import { SOCIAL_KITS } from './fault-kits-social';
import type { FaultyNetwork } from './faulty-network';
import { connectBot as connectMaxBot, dialogOf, MaxWorld, newBot as newMaxBot, person } from './max';
import { OkTestbed } from './ok';
import { connectBot, customer, newBot, privateChat, TelegramWorld } from './telegram';
import { ViberTestbed } from './viber';
import { connectCommunity, VkWorld } from './vk';
import { WhatsAppTestbed } from './whatsapp';
import { YouTubeTestbed } from './youtube';

// TEST-ONLY: each network of the network-faults table (jobs/network-faults.test.ts) as the table needs
// it: its testbed started with every address at its emulator going through the fault proxy, the call
// that carries a reply, how the network says "too many requests", and a conversation to write into.

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
      fault: tooManyRequests({
        ok: false,
        error_code: 429,
        description: `Too Many Requests: retry after ${seconds}`,
        parameters: { retry_after: seconds },
      }),
    },
    async write(text) {
      const bot = newBot(world.tg);
      const { account } = await connectBot(world, bot.token);
      const anna = customer();
      await world.tg.deliver(bot.token, {
        message: world.tg.customerMessage(bot.token, { chat: privateChat(anna), from: anna, text: 'Hi' }),
      });
      const chat = await world.chatOf(account.id, String(anna.id));
      return message(world.writeFromInbox(chat!.id, text));
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
      return message(bed.writeFromInbox(chat!.id, text));
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
      return message(world.writeFromInbox(chat!.id, text));
    },
  };
}

async function max(proxy: FaultyNetwork): Promise<FaultKit> {
  const world = new MaxWorld();
  await behind(world, proxy, () => world.max.url);
  return {
    name: 'MAX',
    bed: world,
    send: /^POST \/messages\?/,
    tooMany: { seconds: 20, fault: retryAfter(20) },
    async write(text) {
      const bot = newMaxBot(world.max);
      const { account } = await connectMaxBot(world, bot.token);
      const peter = person();
      const first = world.max.customerMessage({
        sender: peter,
        recipient: dialogOf(peter),
        text: 'Добрый день',
      });
      await world.max.deliver(bot.token, {
        update_type: 'message_created',
        timestamp: Date.now(),
        message: first,
      });
      const chat = await world.chatOf(account.id, String(dialogOf(peter).chat_id));
      return message(world.writeFromInbox(chat!.id, text));
    },
  };
}

async function whatsapp(proxy: FaultyNetwork): Promise<FaultKit> {
  const bed = new WhatsAppTestbed();
  await behind(bed, proxy, () => bed.emu.url);
  return {
    name: 'WhatsApp',
    bed,
    send: /^POST \/[^/]+\/\d+\/messages$/,
    // Meta sends no Retry-After: a bare 429 waits a minute (whatsapp/client.ts).
    tooMany: { seconds: 60, fault: retryAfter(60) },
    async write(text) {
      const account = await bed.connectNumber();
      await bed.emu.pushMessage({ from: account.customer, text: 'Does it come in blue?' });
      const chat = await bed.chatOf(account.id, account.customer);
      return message(bed.writeFromInbox(chat!.id, text));
    },
  };
}

async function viber(proxy: FaultyNetwork): Promise<FaultKit> {
  const bed = new ViberTestbed();
  await behind(bed, proxy, () => bed.emu.url);
  return {
    name: 'Viber',
    bed,
    send: /^POST \/pa\/send_message$/,
    // Viber documents no Retry-After: its throttling waits 30 s (viber/client.ts).
    tooMany: { seconds: 30, fault: retryAfter(30) },
    async write(text) {
      const bot = await bed.connectBot();
      await bed.emu.pushMessage(bot.token, { userId: bot.user, name: 'Иван', text: 'Где мой заказ?' });
      const chat = await bed.chatOf(bot.id, bot.user);
      return message(bed.writeFromInbox(chat!.id, text));
    },
  };
}

async function ok(proxy: FaultyNetwork): Promise<FaultKit> {
  const bed = new OkTestbed();
  await behind(bed, proxy, () => bed.emu.url);
  return {
    name: 'OK',
    bed,
    send: /^POST \/graph\/me\/messages\/[^/?]+/,
    tooMany: { seconds: 40, fault: retryAfter(40) },
    async write(text) {
      const account = await bed.connectGroup();
      await bed.emu.deliver(
        account.token,
        bed.emu.message({ chatId: account.chatId, ...account.customer, text: 'Где заказ?' }),
      );
      const chat = await bed.chatOf(account.id, account.chatId);
      return message(bed.writeFromInbox(chat!.id, text));
    },
  };
}

async function youtube(proxy: FaultyNetwork): Promise<FaultKit> {
  const bed = new YouTubeTestbed();
  await behind(bed, proxy, () => bed.emu.url);
  return {
    name: 'YouTube',
    bed,
    send: /^POST \/youtube\/v3\/comments\b/,
    tooMany: { seconds: 7, fault: retryAfter(7) },
    async write(text) {
      const { id } = await bed.connectWithHistory();
      const [comment] = await bed.itemsOf(id);
      return replyTo(bed, comment!.id, text);
    },
  };
}

export const FAULT_KITS: KitEntry[] = [
  { name: 'Telegram', start: telegram },
  { name: 'Avito', start: avito },
  { name: 'VK', start: vk },
  { name: 'MAX', start: max },
  { name: 'WhatsApp', start: whatsapp },
  { name: 'Viber', start: viber },
  { name: 'OK', start: ok },
  { name: 'YouTube', start: youtube },
  ...SOCIAL_KITS,
  ...REVIEW_KITS,
  ...RELAY_KITS,
];
