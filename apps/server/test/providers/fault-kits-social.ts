import { DiscordEmulator } from '../../emulators/discord/emulator';
import { FacebookEmulator, FB_ERRORS } from '../../emulators/facebook/emulator';
import { InstagramEmulator } from '../../emulators/instagram/emulator';
import { ThreadsEmulator } from '../../emulators/threads/emulator';
import { TiktokEmulator } from '../../emulators/tiktok/emulator';
import { TwitterEmulator } from '../../emulators/twitter/emulator';
import { PollingManager } from '../../src/jobs/pollers';
import {
  behind,
  connectByPopup,
  EmulatorTestbed,
  type FaultKit,
  type KitEntry,
  message,
  replyTo,
  tooManyRequests,
  type Written,
} from './fault-kit';
import type { FaultyNetwork } from './faulty-network';
import { MetaTestbed } from './meta';
import { type ProviderTestbed, until } from './testbed';

// TEST-ONLY: the network-faults kits of the Meta networks, X, TikTok and Discord (fault-kit.ts says what
// a kit is). Each connects a fresh account per conversation, so one test's rate-limit state (X's window,
// Discord's bucket) never reaches the next.

/** Graph's throttling in its error envelope (Facebook, Instagram and Threads answer it so). */
const graphTooMany = (code: number, text: string, retryAfter?: number) =>
  tooManyRequests(
    { error: { message: text, type: 'OAuthException', code, fbtrace_id: 'A1b2C3' } },
    { retryAfter },
  );

/** The imported item with `externalId` answered from the inbox. */
async function replyUnder(bed: ProviderTestbed, id: number, externalId: string, text: string) {
  const item = await until(() => bed.item(id, externalId));
  return replyTo(bed, item.id, text);
}

// Meta sends no Retry-After: the Graph connectors wait a minute on a rate limit (facebook/meta.ts).
const META_TOO_MANY = {
  seconds: 60,
  fault: graphTooMany(FB_ERRORS.tooMany.code, FB_ERRORS.tooMany.message),
};
/** The Send API, `POST /{version}/{page-id}/messages` (Instagram's Direct goes through the Page too). */
const SEND_API = /^POST \/v\d+\.\d+\/\d+\/messages$/;

async function facebook(proxy: FaultyNetwork): Promise<FaultKit> {
  const bed = new MetaTestbed('facebook', () => FacebookEmulator.start(), 'pages_messaging');
  await behind(bed, proxy, () => bed.emu.url);
  const net = bed.emu.network;
  return {
    name: 'Facebook',
    bed,
    send: SEND_API,
    tooMany: META_TOO_MANY,
    async write(text) {
      const page = net.addPage({ id: `10${net.next()}`, name: `Кофейня ${net.next()}` });
      net.userPages = [page.id];
      const id = await connectByPopup(bed, () => bed.dialog());
      const psid = `psid-${net.next()}`;
      await bed.emu.message(page.id, psid, 'Здравствуйте, вы открыты?', 'Ольга Петрова');
      const chat = await bed.chatOf(id, psid);
      return message(bed.writeFromInbox(chat!.id, text));
    },
  };
}

async function instagram(proxy: FaultyNetwork): Promise<FaultKit> {
  const bed = new MetaTestbed('instagram', () => InstagramEmulator.start(), 'instagram_manage_comments');
  await behind(bed, proxy, () => bed.emu.url);
  return {
    name: 'Instagram',
    bed,
    send: SEND_API,
    tooMany: META_TOO_MANY,
    async write(text) {
      const n = bed.emu.network.next();
      const { page, account } = bed.emu.addAccount(`Кофейня ${n}`, `coffee_${n}`);
      bed.emu.network.userPages = [page.id];
      const id = await connectByPopup(bed, () => bed.dialog());
      const igsid = `IGSID_${account.id}`;
      await bed.emu.igMessage(account, igsid, 'Здравствуйте, вы открыты?');
      const chat = await bed.chatOf(id, igsid);
      return message(bed.writeFromInbox(chat!.id, text));
    },
  };
}

async function threads(proxy: FaultyNetwork): Promise<FaultKit> {
  const appId = '990602627938098';
  const bed = new EmulatorTestbed(
    'threads',
    async () => {
      const emu = await ThreadsEmulator.start();
      emu.apps.set(appId, 'threads-secret');
      return emu;
    },
    (emu) => ({
      ...emu.env,
      THREADS_APP_ID: appId,
      THREADS_APP_SECRET: 'threads-secret',
      PROVIDER_UPDATES: 'polling',
    }),
  );
  await behind(bed, proxy, () => bed.emu.url);
  const seconds = 30;
  return {
    name: 'Threads',
    bed,
    // A reply is a container with its text, then its publication: the container carries the text.
    send: /^POST \/v\d+\.\d+\/me\/threads$/,
    // Graph's throttling code 4 in a 429; the connector waits as long as Retry-After says.
    tooMany: { seconds, fault: graphTooMany(4, 'Application request limit reached', seconds) },
    async write(text) {
      const profile = bed.emu.addProfile(`shop_${Date.now()}`);
      const post = bed.emu.addMedia({
        owner: profile,
        text: 'Новая коллекция',
        at: new Date(Date.now() - 7_200_000),
      });
      const question = bed.emu.addMedia({
        owner: profile,
        replyTo: post.id,
        username: 'anna',
        text: 'Где купить?',
        at: new Date(Date.now() - 3_600_000),
      });
      bed.emu.consenting = profile;
      return replyUnder(bed, await connectByPopup(bed), question.id, text);
    },
  };
}

async function twitter(proxy: FaultyNetwork): Promise<FaultKit> {
  const bed = new EmulatorTestbed(
    'twitter',
    () => TwitterEmulator.start(),
    (emu) => ({
      TWITTER_API_URL: emu.url,
      TWITTER_OAUTH_URL: `${emu.url}/i/oauth2/authorize`,
      TWITTER_CLIENT_ID: emu.app.clientId,
      TWITTER_CLIENT_SECRET: emu.app.clientSecret,
    }),
  );
  await behind(bed, proxy, () => bed.emu.url);
  const seconds = 120;
  let seq = 0;
  return {
    name: 'X (Twitter)',
    bed,
    send: /^POST \/2\/tweets$/,
    tooMany: {
      seconds,
      // X says when its window opens again, as a moment (epoch seconds), not a wait: read at the answer.
      fault: tooManyRequests(
        { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
        {
          headers: () => ({
            'x-rate-limit-limit': '50',
            'x-rate-limit-remaining': '0',
            'x-rate-limit-reset': String(Math.floor(bed.clock / 1000) + seconds),
          }),
        },
      ),
    },
    async write(text) {
      seq += 1;
      const brand = bed.emu.addUser(`shop_${seq}`, `Бренд ${seq}`);
      const own = bed.emu.post(brand, 'Наша новая коллекция');
      const question = bed.emu.post(bed.emu.addUser(`fan_${seq}`, 'Анна'), 'Есть в синем?', {
        replyTo: own.id,
      });
      bed.emu.consenting = brand;
      return replyUnder(bed, await connectByPopup(bed), question.id, text);
    },
  };
}

async function tiktok(proxy: FaultyNetwork): Promise<FaultKit> {
  const bed = new EmulatorTestbed(
    'tiktok',
    () => TiktokEmulator.start(),
    (emu) => ({
      TIKTOK_API_URL: emu.url,
      TIKTOK_OAUTH_URL: `${emu.url}/oauth`,
      TIKTOK_CLIENT_ID: emu.app.clientId,
      TIKTOK_CLIENT_SECRET: emu.app.clientSecret,
      POLL_TIMEOUT_S: '0',
    }),
  );
  await behind(bed, proxy, () => bed.emu.url);
  const seconds = 25;
  let seq = 0;
  return {
    name: 'TikTok',
    bed,
    send: /^POST \/open_api\/v1\.3\/business\/comment\/reply\/create\/$/,
    // TikTok's throttling: HTTP 429 with its envelope's code 40100 and Retry-After (tiktok/client.ts).
    tooMany: {
      seconds,
      fault: tooManyRequests(
        { code: 40100, message: 'Too many requests', request_id: 'r-1', data: {} },
        { retryAfter: seconds },
      ),
    },
    async write(text) {
      seq += 1;
      const account = bed.emu.addAccount(`shop_${seq}`, `Магазин ${seq}`);
      const video = bed.emu.addVideo(account, 'Новая коллекция');
      const question = bed.emu.addComment(video.item_id, { text: 'Есть в синем?', user: 'anna' });
      bed.emu.consenting = account;
      return replyUnder(bed, await connectByPopup(bed), question.comment_id, text);
    },
  };
}

async function discord(proxy: FaultyNetwork): Promise<FaultKit> {
  const bed = new EmulatorTestbed(
    'discord',
    () => DiscordEmulator.start(),
    (emu) => ({
      DISCORD_API_URL: emu.url,
      DISCORD_GATEWAY_URL: emu.wsUrl,
      POLL_TIMEOUT_S: '1',
    }),
  );
  // Only REST goes through the proxy: the gateway's ws:// address is not the emulator's http:// origin.
  await behind(bed, proxy, () => bed.emu.url);
  const { bus, sealer, config, log } = bed.t.deps;
  const gateway = new PollingManager({ db: bed.db(), bus, sealer, config, log }, `dc-faults-${process.pid}`, {
    spaceIds: [bed.spaceId],
  });
  bed.onClose(() => gateway.stop());
  const seconds = 3;
  let seq = 0;
  return {
    name: 'Discord',
    bed,
    send: /^POST \/api\/v\d+\/channels\/\d+\/messages$/,
    // Discord's 429 says how long in its JSON (`retry_after`, seconds, a float) with the bucket emptied.
    tooMany: {
      seconds,
      fault: tooManyRequests(
        { message: 'You are being rate limited.', retry_after: seconds - 0.5, global: false },
        {
          retryAfter: seconds,
          headers: () => ({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': String(seconds - 0.5) }),
        },
      ),
    },
    async write(text): Promise<Written> {
      seq += 1;
      const bot = bed.emu.addBot(`shopbot${seq}`);
      const dm = `12500000000000${String(seq).padStart(5, '0')}`;
      const res = await bed.connect({ bot_token: bot.token, channel_ids: '1200000000000000001' });
      if (res.statusCode !== 200) throw new Error(res.body);
      await gateway.scan();
      await until(async () => bed.emu.sessionOf(bot));
      bed.emu.userWrites(bot, { channelId: dm, text: 'Привет в личку' });
      const chat = await until(() => bed.chatOf(res.json().id as number, dm));
      return message(bed.writeFromInbox(chat.id, text));
    },
  };
}

export const SOCIAL_KITS: KitEntry[] = [
  { name: 'Facebook', start: facebook },
  { name: 'Instagram', start: instagram },
  { name: 'X (Twitter)', start: twitter },
  { name: 'Discord', start: discord },
  { name: 'TikTok', start: tiktok },
  { name: 'Threads', start: threads },
];
