import { TtlCache } from '../../lib/ttl-cache';
import type { InboundEvent } from '../inbound';
import { type GraphAuth, graphCall } from './meta';

// Messenger names people only by their page-scoped id (PSID); the User Profile API (`GET /{psid}` with
// the Page token, fields first_name, last_name, profile_pic) gives the name and picture of someone who
// wrote to the Page. A failure here never loses the message: the author keeps an empty name (the chat
// shows the network's placeholder) until a later message, after the cache's ten minutes, fills it in.

interface Profile {
  first_name?: string;
  last_name?: string;
  profile_pic?: string;
}

/** Names change rarely and a busy Page hears from the same people all day: kept for ten minutes. */
const profiles = new TtlCache<Profile>(10 * 60_000, 50_000);
/** People looked up in one delivery (Meta batches up to a few events per entry). */
const MAX_LOOKUPS = 20;

/** The customers' names on a delivery's Messenger messages; `server` keys the cache (the Graph base). */
export async function withMessengerNames(
  auth: GraphAuth,
  events: InboundEvent[],
  server: string,
): Promise<InboundEvent[]> {
  const wanted = new Set<string>();
  for (const e of events)
    if (e.type === 'message' && !e.isOwn && !e.author.name) wanted.add(e.author.externalId);
  if (wanted.size === 0) return events;
  const found = new Map<string, Profile>();
  for (const psid of [...wanted].slice(0, MAX_LOOKUPS)) {
    const key = `${server}|${psid}`;
    let profile = profiles.get(key);
    if (!profile) {
      try {
        profile = await graphCall<Profile>(auth, 'GET', `/${encodeURIComponent(psid)}`, {
          query: { fields: 'first_name,last_name,profile_pic' },
        });
        profiles.set(key, profile);
      } catch {
        // Names are a nicety: the message is stored without one. The miss is remembered too, so a
        // person the API will not describe (no permission, a deleted account) costs one call per TTL.
        profiles.set(key, {});
        continue;
      }
    }
    found.set(psid, profile);
  }
  return events.map((e) => {
    if (e.type !== 'message') return e;
    const profile = found.get(e.author.externalId);
    const name = profile ? [profile.first_name, profile.last_name].filter(Boolean).join(' ') : '';
    if (!profile || !name) return e;
    return {
      ...e,
      author: { ...e.author, name, ...(profile.profile_pic ? { image: profile.profile_pic } : {}) },
    };
  });
}
