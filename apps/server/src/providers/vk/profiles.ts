import { TtlCache } from '../../lib/ttl-cache';
import type { InboundEvent } from '../inbound';
import type { VkApi } from './client';

// VK updates name people only by id; users.get (community tokens may call it) gives names and photos.
// A failure here never loses the update: the author keeps the `id123` name until a later update.

interface VkUser {
  id: number;
  first_name?: string;
  last_name?: string;
  screen_name?: string;
  photo_100?: string;
}

/** users.get takes up to 1000 ids per call; a webhook or a long-poll batch is far below that. */
const MAX_IDS = 1000;

/**
 * People's names change rarely, and a busy community hears from the same people all day: names are
 * kept for a while per VK server (the API base address), so a burst of updates asks users.get only for
 * people it has not seen lately. A renamed person shows the new name within PROFILE_TTL_MS.
 */
const PROFILE_TTL_MS = 10 * 60_000;
const PROFILE_CACHE_MAX = 50_000;
const profileCache = new TtlCache<VkUser>(PROFILE_TTL_MS, PROFILE_CACHE_MAX);

/** `server` is the VK API base address the api talks to: profiles are cached per server. */
export async function withProfiles(
  api: VkApi,
  events: InboundEvent[],
  server: string,
): Promise<InboundEvent[]> {
  const ids = new Set<number>();
  for (const e of events) {
    if (e.type === 'change' || e.isOwn) continue;
    const id = Number(e.author.externalId);
    if (Number.isInteger(id) && id > 0) ids.add(id);
  }
  if (ids.size === 0) return events;
  const now = Date.now();
  const byId = new Map<string, VkUser>();
  const missing: number[] = [];
  for (const id of ids) {
    const user = profileCache.get(`${server}|${id}`, now);
    if (user) byId.set(String(id), user);
    else missing.push(id);
  }
  if (missing.length > 0) {
    try {
      const users = await api<VkUser[]>('users.get', {
        user_ids: missing.slice(0, MAX_IDS).join(','),
        fields: 'photo_100,screen_name',
      });
      for (const u of users) {
        byId.set(String(u.id), u);
        profileCache.set(`${server}|${u.id}`, u, now);
      }
    } catch {
      // Names are a nicety: the update is stored with `id123` names and a later one fills them in.
    }
  }
  return events.map((e) => {
    if (e.type === 'change') return e;
    const user = byId.get(e.author.externalId);
    if (!user) return e;
    const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
    return {
      ...e,
      author: {
        ...e.author,
        name: name || e.author.name,
        screenName: user.screen_name,
        image: user.photo_100,
        url: user.screen_name ? `https://vk.com/${user.screen_name}` : e.author.url,
      },
    };
  });
}
