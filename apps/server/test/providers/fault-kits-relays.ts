import type { ProviderId } from '@otklik/shared';
import { AppFollowEmulator } from '../../emulators/appfollow/emulator';
import { AsodeskEmulator } from '../../emulators/asodesk/emulator';
import type { ForumEmulator } from '../../emulators/forum-emulator';
import { UserEchoEmulator } from '../../emulators/userecho/emulator';
import { UseResponseEmulator } from '../../emulators/useresponse/emulator';
import { behind, EmulatorTestbed, type FaultKit, type KitEntry, replyTo, tooManyRequests } from './fault-kit';
import type { FaultyNetwork } from './faulty-network';
import { type ProviderTestbed, until } from './testbed';

// TEST-ONLY: the network-faults kits of the review relays (AppFollow, Asodesk: one app's store reviews,
// our replies posted to the store through them) and the feedback forums (UserEcho, UseResponse: topics and
// their comments). Fault-kit.ts says what a kit is. Each write connects a fresh account (an app, a site)
// with one review or topic, imported on connect, and replies to it from the inbox.

/** A polled network's testbed: its emulator started first, the app polling (nothing polls unless asked). */
const polledBed = <E extends { url: string; env: Record<string, string>; close(): Promise<unknown> }>(
  provider: ProviderId,
  start: () => Promise<E>,
) => new EmulatorTestbed(provider, start, (emu) => ({ ...emu.env, PROVIDER_UPDATES: 'polling' }));

/** Connects (200 expected) and gives the imported item with `externalId`. */
async function connectWith(bed: ProviderTestbed, credentials: Record<string, string>, externalId: string) {
  const res = await bed.connect(credentials);
  if (res.statusCode !== 200) throw new Error(res.body);
  return until(() => bed.item(res.json().id as number, externalId));
}

// Both relays' clients read nothing of the answer to a reply but its HTTP status (appfollow/client.ts:
// "the reply's answer body" is UNCONFIRMED; asodesk/client.ts: the answer route is UNCONFIRMED), and our
// reply's id is made from the review's: a 200 of any body is taken as posted, so garbage cannot be told
// from a delivery. The other faults apply as to every network.
const RELAY_ANSWER = 'the answer to a reply is not documented and only its status is read';

/** The relays' 429 as their emulators answer it (neither network documents its body), with Retry-After. */
const relayTooMany = (seconds: number) => ({
  seconds,
  fault: tooManyRequests({ error: 'Too many requests' }, { retryAfter: seconds }),
});

async function appfollow(proxy: FaultyNetwork): Promise<FaultKit> {
  const bed = polledBed('af_googleplay', () => AppFollowEmulator.start());
  await behind(bed, proxy, () => bed.emu.url);
  let seq = 0;
  return {
    name: 'AppFollow',
    bed,
    send: /^POST \/api\/v2\/reviews\/reply$/,
    // review-relay.ts waits Retry-After (a minute without one).
    tooMany: relayTooMany(35),
    async write(text) {
      seq += 1;
      const extId = `com.example.faults${seq}`;
      const token = bed.emu.addToken([{ appId: extId, store: 'gp' }]);
      const review = bed.emu.review(extId, { text: 'Нет тёмной темы', rating: 3 });
      const item = await connectWith(bed, { api_token: token, ext_id: extId }, String(review.id));
      return replyTo(bed, item.id, text);
    },
  };
}

async function asodesk(proxy: FaultyNetwork): Promise<FaultKit> {
  const bed = polledBed('asodesk_googleplay', () => AsodeskEmulator.start());
  await behind(bed, proxy, () => bed.emu.url);
  let seq = 0;
  return {
    name: 'Asodesk',
    bed,
    send: /^POST \/api\/v1\/reviews\/[^/]+\/answer$/,
    tooMany: relayTooMany(15),
    async write(text) {
      seq += 1;
      const appId = `com.example.aso${seq}`;
      const token = bed.emu.addToken([{ appId, store: 'googleplay' }]);
      const review = bed.emu.review(appId, { text: 'Долго грузится', rating: 2 });
      const item = await connectWith(bed, { api_token: token, app_id: appId }, String(review.id));
      return replyTo(bed, item.id, text);
    },
  };
}

/** A forum kit: a fresh site with one topic per write, our reply a comment in it. */
async function forum<E extends ForumEmulator & { env: Record<string, string> }>(
  proxy: FaultyNetwork,
  opts: {
    name: string;
    provider: ProviderId;
    start: () => Promise<E>;
    send: RegExp;
    tooMany: FaultKit['tooMany'];
    site: (n: number) => string;
    credentials: (site: string, key: string) => Record<string, string>;
  },
): Promise<FaultKit> {
  const bed = polledBed(opts.provider, opts.start);
  await behind(bed, proxy, () => bed.emu.url);
  let seq = 0;
  return {
    name: opts.name,
    bed,
    send: opts.send,
    tooMany: opts.tooMany,
    async write(text) {
      seq += 1;
      const site = opts.site(seq);
      const key = `key-faults-${seq}`;
      bed.emu.addSite(site, key);
      const topic = bed.emu.topic(site, { header: 'Не приходит письмо', description: 'Уже неделю' });
      const item = await connectWith(bed, opts.credentials(site, key), `topic:${topic.id}`);
      return replyTo(bed, item.id, text);
    },
  };
}

const userecho = (proxy: FaultyNetwork) =>
  forum(proxy, {
    name: 'UserEcho',
    provider: 'userecho',
    start: () => UserEchoEmulator.start(),
    send: /^POST \/[^/]+\/api\/v2\/topics\/\d+\/comments\.json\?/,
    // forum.ts waits Retry-After (a minute without one); the bodies are the emulators' envelopes.
    tooMany: {
      seconds: 40,
      fault: tooManyRequests({ status: 'error', message: 'Too many requests' }, { retryAfter: 40 }),
    },
    site: (n) => `faults${n}`,
    credentials: (alias, key) => ({ alias, access_token: key }),
  });

const useresponse = (proxy: FaultyNetwork) =>
  forum(proxy, {
    name: 'UseResponse',
    provider: 'useresponse',
    start: () => UseResponseEmulator.start(),
    send: /^POST \/[^/]+\/api\/4\.0\/comments\/create\.json\?/,
    tooMany: {
      seconds: 12,
      fault: tooManyRequests({ error: { code: 429, message: 'Too many requests' } }, { retryAfter: 12 }),
    },
    site: (n) => `faults${n}.example.com`,
    credentials: (site, key) => ({ site, api_key: key }),
  });

export const RELAY_KITS: KitEntry[] = [
  { name: 'AppFollow', start: appfollow, answerUnchecked: RELAY_ANSWER },
  { name: 'Asodesk', start: asodesk, answerUnchecked: RELAY_ANSWER },
  { name: 'UserEcho', start: userecho },
  { name: 'UseResponse', start: useresponse },
];
