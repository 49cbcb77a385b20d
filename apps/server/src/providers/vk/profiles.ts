import type { InboundEvent } from '../../modules/inbox/inbound';
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

export async function withProfiles(api: VkApi, events: InboundEvent[]): Promise<InboundEvent[]> {
  const ids = new Set<number>();
  for (const e of events) {
    if (e.type === 'change' || e.isOwn) continue;
    const id = Number(e.author.externalId);
    if (Number.isInteger(id) && id > 0) ids.add(id);
  }
  if (ids.size === 0) return events;
  let users: VkUser[];
  try {
    users = await api<VkUser[]>('users.get', {
      user_ids: [...ids].slice(0, MAX_IDS).join(','),
      fields: 'photo_100,screen_name',
    });
  } catch {
    return events;
  }
  const byId = new Map(users.map((u) => [String(u.id), u]));
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
