import { z } from 'zod';
import type { InboundEvent } from '../inbound';

// WhatsApp webhook payloads (PROVIDERS.md §3 "Webhook payload") → our inbound events. A chat is the
// customer's wa_id; a message's id is its wamid, which ingestion deduplicates on (PROVIDERS §8.4).

const media = z.object({
  id: z.string(),
  mime_type: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
  voice: z.boolean().optional(),
});

const message = z.object({
  from: z.string(),
  id: z.string(),
  timestamp: z.string(),
  type: z.string(),
  text: z.object({ body: z.string() }).optional(),
  image: media.optional(),
  video: media.optional(),
  audio: media.optional(),
  document: media.optional(),
  sticker: media.optional(),
  reaction: z.object({ message_id: z.string(), emoji: z.string().optional() }).optional(),
  location: z
    .object({
      latitude: z.number(),
      longitude: z.number(),
      name: z.string().optional(),
      address: z.string().optional(),
    })
    .optional(),
  button: z.object({ text: z.string() }).optional(),
  interactive: z
    .object({
      button_reply: z.object({ id: z.string().optional(), title: z.string() }).optional(),
      list_reply: z.object({ id: z.string().optional(), title: z.string() }).optional(),
    })
    .optional(),
  contacts: z.array(z.object({ name: z.object({ formatted_name: z.string() }).optional() })).optional(),
});

const status = z.object({
  id: z.string(),
  status: z.string(),
  timestamp: z.string(),
  recipient_id: z.string(),
  errors: z.array(z.object({ code: z.number().optional(), title: z.string().optional() })).optional(),
});

export const webhookPayloadSchema = z.object({
  object: z.string(),
  entry: z.array(
    z.object({
      id: z.string().optional(),
      changes: z.array(
        z.object({
          field: z.string(),
          value: z.object({
            metadata: z.object({ phone_number_id: z.string() }).optional(),
            contacts: z
              .array(z.object({ wa_id: z.string(), profile: z.object({ name: z.string() }).optional() }))
              .optional(),
            messages: z.array(message).optional(),
            statuses: z.array(status).optional(),
          }),
        }),
      ),
    }),
  ),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;
type WaMessage = z.infer<typeof message>;

/** A status of a message we sent (sent/delivered/read/played/failed). */
export interface DeliveryUpdate {
  chatExternalId: string;
  externalId: string;
  state: 'sent' | 'delivered' | 'read' | 'failed';
  error?: string;
  at: Date;
}

/** Media has no public address: it is fetched with the token (`GET /{media-id}`), so we keep its id. */
export const MEDIA_REF = 'whatsapp-media:';
export const mediaUrl = (id: string) => `${MEDIA_REF}${id}`;

const MEDIA_TYPES = {
  image: 'image',
  video: 'video',
  document: 'document',
  sticker: 'sticker',
  audio: 'audio',
} as const;

function contentOf(m: WaMessage): {
  text: string;
  attachments: NonNullable<InboundMessageEvent['attachments']>;
} {
  if (m.type in MEDIA_TYPES) {
    const kind = m.type as keyof typeof MEDIA_TYPES;
    const file = m[kind];
    if (!file) return { text: '', attachments: [] };
    const type = kind === 'audio' && file.voice ? 'voice' : MEDIA_TYPES[kind];
    return {
      text: file.caption ?? '',
      attachments: [{ type, url: mediaUrl(file.id), mime: file.mime_type, name: file.filename }],
    };
  }
  if (m.text) return { text: m.text.body, attachments: [] };
  if (m.location) {
    const place = [m.location.name, m.location.address].filter(Boolean).join(', ');
    return {
      text: `📍 ${place ? `${place} ` : ''}(${m.location.latitude}, ${m.location.longitude})`,
      attachments: [],
    };
  }
  if (m.button) return { text: m.button.text, attachments: [] };
  const choice = m.interactive?.button_reply ?? m.interactive?.list_reply;
  // Our buttons' and rows' ids are the option's data (interactive.ts): the answer is that, not the title.
  if (choice) return { text: choice.id || choice.title, attachments: [] };
  if (m.contacts) {
    const names = m.contacts.map((c) => c.name?.formatted_name).filter(Boolean);
    return { text: `👤 ${names.join(', ')}`, attachments: [] };
  }
  return { text: `[${m.type}]`, attachments: [] };
}

type InboundMessageEvent = Extract<InboundEvent, { type: 'message' }>;

/** Types that are not something a customer wrote (a number change, a welcome request). */
const SKIPPED = new Set(['system', 'request_welcome', 'ephemeral']);
/** `played` (a voice message was listened to) is the audio form of `read`. */
const STATES: Record<string, DeliveryUpdate['state']> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  played: 'read',
  failed: 'failed',
};

const at = (seconds: string) => new Date(Number(seconds) * 1000);

/** The events of one webhook call for the number `phoneNumberId`; other numbers' changes are ignored. */
export function mapWebhook(
  payload: WebhookPayload,
  phoneNumberId: string,
): { events: InboundEvent[]; deliveries: DeliveryUpdate[] } {
  const events: InboundEvent[] = [];
  const deliveries: DeliveryUpdate[] = [];
  if (payload.object !== 'whatsapp_business_account') return { events, deliveries };
  for (const change of payload.entry.flatMap((e) => e.changes)) {
    const value = change.value;
    // One Meta app may serve several numbers, and its callback URL is one per app (PROVIDERS §4 common).
    if (change.field !== 'messages' || value.metadata?.phone_number_id !== phoneNumberId) continue;
    const names = new Map((value.contacts ?? []).map((c) => [c.wa_id, c.profile?.name]));
    for (const m of value.messages ?? []) {
      if (SKIPPED.has(m.type)) continue;
      if (m.type === 'reaction' && m.reaction) {
        // `emoji` is absent when the customer takes the reaction back (PROVIDERS §3).
        const emoji = m.reaction.emoji;
        events.push({
          type: 'change',
          target: 'message',
          externalId: m.reaction.message_id,
          chatExternalId: m.from,
          change: 'reactions',
          reactions: emoji ? [{ value: emoji, count: 1, own: false }] : [],
          at: at(m.timestamp),
        });
        continue;
      }
      events.push({
        type: 'message',
        chatExternalId: m.from,
        externalId: m.id,
        author: { externalId: m.from, name: names.get(m.from) ?? `+${m.from}`, screenName: `+${m.from}` },
        ...contentOf(m),
        createdAt: at(m.timestamp),
      });
    }
    for (const s of value.statuses ?? []) {
      const state = STATES[s.status];
      if (!state) continue;
      deliveries.push({
        chatExternalId: s.recipient_id,
        externalId: s.id,
        state,
        error: s.errors?.map((e) => e.title ?? `Error ${e.code}`).join('; ') || undefined,
        at: at(s.timestamp),
      });
    }
  }
  return { events, deliveries };
}
