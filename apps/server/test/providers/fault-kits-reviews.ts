import { GmapsEmulator } from '../../emulators/gmaps/emulator';
import { GooglePlayEmulator } from '../../emulators/googleplay/emulator';
import { RuStoreEmulator } from '../../emulators/rustore/emulator';
import {
  behind,
  connectByPopup,
  EmulatorTestbed,
  type FaultKit,
  type KitEntry,
  replyTo,
  tooManyRequests,
} from './fault-kit';
import type { FaultyNetwork } from './faulty-network';
import { until } from './testbed';

// TEST-ONLY: the network-faults kits of the app stores and maps whose reviews we answer (Google Play,
// Google Maps, RuStore; fault-kit.ts says what a kit is): each write connects a fresh account with one
// review, imported on connect, and replies to it.

/** Google's quota answer in its error envelope (both APIs answer throttling so). */
const quotaExceeded = (retryAfter?: number) =>
  tooManyRequests(
    {
      error: {
        code: 429,
        message: 'Quota exceeded.',
        errors: [{ reason: 'rateLimitExceeded', domain: 'usageLimits' }],
        status: 'RESOURCE_EXHAUSTED',
      },
    },
    { retryAfter },
  );

async function googlePlay(proxy: FaultyNetwork): Promise<FaultKit> {
  const bed = new EmulatorTestbed(
    'googleplay',
    () => GooglePlayEmulator.start(),
    (emu) => ({
      ...emu.env,
      PROVIDER_UPDATES: 'polling',
    }),
  );
  // The token call stays direct: its JWT names the token URL as audience, which Google checks.
  await behind(bed, proxy, () => bed.emu.url, ['GOOGLEPLAY_TOKEN_URL']);
  let seq = 0;
  return {
    name: 'Google Play',
    bed,
    send: /^POST \/androidpublisher\/v3\/applications\/[^/]+\/reviews\/[^/]+:reply$/,
    // The Play Developer API's quota answer carries Retry-After (googleplay/client.ts waits that long).
    tooMany: { seconds: 45, fault: quotaExceeded(45) },
    async write(text) {
      seq += 1;
      const packageName = `com.example.faults${seq}`;
      const key = bed.emu.addServiceAccount([packageName]);
      const review = bed.emu.review(packageName, { text: 'Нет тёмной темы', starRating: 3 });
      const res = await bed.connect({ package_name: packageName, service_account_json: key.json });
      if (res.statusCode !== 200) throw new Error(res.body);
      const item = await until(() => bed.item(res.json().id as number, review.reviewId));
      return replyTo(bed, item.id, text);
    },
  };
}

async function googleMaps(proxy: FaultyNetwork): Promise<FaultKit> {
  const clientId = 'otklik-gbp.apps.googleusercontent.com';
  const bed = new EmulatorTestbed(
    'gmaps',
    async () => {
      const emu = await GmapsEmulator.start();
      emu.google.addClient(clientId, 'GOCSPX-gbp');
      return emu;
    },
    (emu) => ({
      ...emu.env,
      GMAPS_CLIENT_ID: clientId,
      GMAPS_CLIENT_SECRET: 'GOCSPX-gbp',
      PROVIDER_UPDATES: 'polling',
    }),
  );
  await behind(bed, proxy, () => bed.emu.url);
  let seq = 0;
  return {
    name: 'Google Maps',
    bed,
    send: /^PUT \/v4\/accounts\/\d+\/locations\/[^/]+\/reviews\/[^/]+\/reply$/,
    // Business Profile sends no Retry-After with RESOURCE_EXHAUSTED: the connector waits a minute.
    tooMany: { seconds: 60, fault: quotaExceeded() },
    async write(text) {
      seq += 1;
      const owner = bed.emu.addOwner(`Владелец ${seq}`, [`Кофейня ${seq}`]);
      const review = bed.emu.addReview(owner.locations[0]!.full, {
        text: 'Было вкусно',
        stars: 'FOUR',
        at: new Date(Date.now() - 86_400_000),
      });
      bed.emu.google.consenting = owner.user;
      const id = await connectByPopup(bed);
      const item = await until(() => bed.item(id, review.reviewId));
      return replyTo(bed, item.id, text);
    },
  };
}

async function rustore(proxy: FaultyNetwork): Promise<FaultKit> {
  const bed = new EmulatorTestbed(
    'rustore',
    () => RuStoreEmulator.start(),
    (emu) => ({ ...emu.env, PROVIDER_UPDATES: 'polling' }),
  );
  await behind(bed, proxy, () => bed.emu.url);
  // The app signs its token requests with the worker's clock, which the table moves by hours: RuStore's
  // check of the signed timestamp follows that clock (token calls are not what is faulted here).
  bed.emu.now = () => bed.clock;
  let seq = 0;
  return {
    name: 'RuStore',
    bed,
    send: /^POST \/public\/v1\/application\/[^/]+\/feedback\?commentId=\d+$/,
    // RuStore's 429 in its envelope with Retry-After (rustore/client.ts waits that long).
    tooMany: {
      seconds: 25,
      fault: tooManyRequests(
        {
          code: 'TOO_MANY_REQUESTS',
          message: 'Too many requests',
          body: null,
          timestamp: new Date().toISOString(),
        },
        { retryAfter: 25 },
      ),
    },
    async write(text) {
      seq += 1;
      const packageName = `ru.example.faults${seq}`;
      const key = bed.emu.addKey([packageName]);
      const comment = bed.emu.comment(packageName, { text: 'Вылетает при запуске', rating: 2 });
      const res = await bed.connect({
        package_name: packageName,
        key_id: key.keyId,
        private_key: key.privateKey,
      });
      if (res.statusCode !== 200) throw new Error(res.body);
      const item = await until(() => bed.item(res.json().id as number, String(comment.commentId)));
      return replyTo(bed, item.id, text);
    },
  };
}

export const REVIEW_KITS: KitEntry[] = [
  { name: 'Google Play', start: googlePlay },
  { name: 'Google Maps', start: googleMaps },
  { name: 'RuStore', start: rustore },
];
