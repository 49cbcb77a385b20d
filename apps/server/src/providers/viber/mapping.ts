import { z } from 'zod';
import type { InboundEvent } from '../inbound';

// Viber callbacks (PROVIDERS.md §7b) → our inbound events. A chat is the user's Viber id; a message is
// deduplicated on its `message_token` (PROVIDERS §8.4), kept as a string (see parseViberJson).

const token = z.union([z.string(), z.number()]).transform(String);

const user = z.object({ id: z.string(), name: z.string().optional(), avatar: z.string().optional() });

const message = z.object({
  type: z.string(),
  text: z.string().optional(),
  media: z.string().optional(),
  file_name: z.string().optional(),
  size: z.number().optional(),
  sticker_id: z.number().optional(),
  location: z.object({ lat: z.number(), lon: z.number() }).optional(),
  contact: z.object({ name: z.string().optional(), phone_number: z.string().optional() }).optional(),
});

export const callbackSchema = z.object({
  event: z.string(),
  timestamp: z.number(),
  message_token: token.optional(),
  sender: user.optional(),
  user: user.optional(),
  user_id: z.string().optional(),
  message: message.optional(),
  desc: z.string().optional(),
});
export type ViberCallback = z.infer<typeof callbackSchema>;

/** A delivery status of a message we sent (`delivered`, `seen`, `failed`). */
export interface DeliveryUpdate {
  chatExternalId: string;
  externalId: string;
  state: 'delivered' | 'read' | 'failed';
  error?: string;
  at: Date;
}

type Attachments = Extract<InboundEvent, { type: 'message' }>['attachments'];

function contentOf(m: z.infer<typeof message>): { text: string; attachments: Attachments } {
  const media = m.media;
  switch (m.type) {
    case 'picture':
      return { text: m.text ?? '', attachments: media ? [{ type: 'image', url: media }] : [] };
    case 'video':
      return { text: m.text ?? '', attachments: media ? [{ type: 'video', url: media, size: m.size }] : [] };
    case 'file':
      return {
        text: '',
        attachments: media ? [{ type: 'document', url: media, name: m.file_name, size: m.size }] : [],
      };
    case 'sticker':
      return { text: '', attachments: media ? [{ type: 'sticker', url: media }] : [] };
    case 'url':
      return { text: media ?? m.text ?? '', attachments: [] };
    case 'location':
      return { text: m.location ? `📍 (${m.location.lat}, ${m.location.lon})` : '📍', attachments: [] };
    case 'contact':
      return {
        text: `👤 ${[m.contact?.name, m.contact?.phone_number].filter(Boolean).join(' ')}`,
        attachments: [],
      };
    default:
      return { text: m.text ?? `[${m.type}]`, attachments: [] };
  }
}

const STATES: Record<string, DeliveryUpdate['state']> = {
  delivered: 'delivered',
  seen: 'read',
  failed: 'failed',
};

/**
 * `message` becomes a message. `webhook` (the set_webhook check), `conversation_started`, `subscribed`
 * and `unsubscribed` carry nothing to store; delivery statuses come back separately.
 */
export function mapCallback(callback: ViberCallback): { events: InboundEvent[]; delivery?: DeliveryUpdate } {
  const at = new Date(callback.timestamp);
  if (callback.event === 'message' && callback.sender && callback.message && callback.message_token) {
    const sender = callback.sender;
    return {
      events: [
        {
          type: 'message',
          chatExternalId: sender.id,
          externalId: callback.message_token,
          author: { externalId: sender.id, name: sender.name ?? 'Viber', image: sender.avatar },
          ...contentOf(callback.message),
          createdAt: at,
        },
      ],
    };
  }
  const state = STATES[callback.event];
  if (state && callback.message_token && callback.user_id) {
    return {
      events: [],
      delivery: {
        chatExternalId: callback.user_id,
        externalId: callback.message_token,
        state,
        error: callback.desc,
        at,
      },
    };
  }
  return { events: [] };
}
