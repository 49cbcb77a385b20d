import type { Attachment } from '../../db/schema';

// VK attachment objects (`{type, [type]: {...}}`, PROVIDERS §2 message_new example) → our attachment refs.
// Unknown kinds are left out rather than guessed.

type Json = Record<string, unknown>;

const asRecord = (value: unknown): Json | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const asString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;
const asNumber = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The largest of VK's size variants (`sizes` of a photo, `images` of a sticker). */
function largest(list: unknown): { url: string; width?: number; height?: number } | undefined {
  if (!Array.isArray(list)) return undefined;
  let best: { url: string; width?: number; height?: number } | undefined;
  for (const entry of list) {
    const size = asRecord(entry);
    const url = asString(size?.url) ?? asString(size?.src);
    if (!size || !url) continue;
    const width = asNumber(size.width);
    if (!best || (width ?? 0) >= (best.width ?? 0)) best = { url, width, height: asNumber(size.height) };
  }
  return best;
}

function one(attachment: Json): Attachment | undefined {
  const type = asString(attachment.type);
  const body = type ? asRecord(attachment[type]) : undefined;
  if (!type || !body) return undefined;
  const owner = asNumber(body.owner_id) ?? asNumber(body.from_id);
  const id = asNumber(body.id);
  switch (type) {
    case 'photo': {
      const size = largest(body.sizes);
      return size ? { type: 'image', ...size } : undefined;
    }
    case 'graffiti': {
      const url = asString(body.url);
      return url ? { type: 'image', url } : undefined;
    }
    case 'sticker': {
      const size = largest(body.images) ?? largest(body.images_with_background);
      return size ? { type: 'sticker', ...size } : undefined;
    }
    case 'doc': {
      const url = asString(body.url);
      return url
        ? { type: 'document', url, name: asString(body.title), size: asNumber(body.size) }
        : undefined;
    }
    case 'audio_message': {
      const url = asString(body.link_mp3) ?? asString(body.link_ogg);
      return url ? { type: 'voice', url } : undefined;
    }
    case 'audio': {
      const url = asString(body.url);
      const name = [asString(body.artist), asString(body.title)].filter(Boolean).join(' — ');
      return url ? { type: 'audio', url, name: name || undefined } : undefined;
    }
    case 'video':
      return owner !== undefined && id !== undefined
        ? { type: 'video', url: `https://vk.com/video${owner}_${id}`, name: asString(body.title) }
        : undefined;
    case 'link': {
      const url = asString(body.url);
      return url ? { type: 'link', url, name: asString(body.title) } : undefined;
    }
    case 'wall':
      return owner !== undefined && id !== undefined
        ? { type: 'link', url: `https://vk.com/wall${owner}_${id}` }
        : undefined;
    default:
      return undefined;
  }
}

export function mapAttachments(list: unknown): Attachment[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) => {
    const record = asRecord(entry);
    const mapped = record ? one(record) : undefined;
    return mapped ? [mapped] : [];
  });
}
