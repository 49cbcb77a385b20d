import { z } from 'zod';

// The one shape every connector produces (normalise step of the pipeline). Connectors map their
// network's payloads to these; ingestion validates them again, so a connector bug cannot store junk.

const attachment = z.object({
  type: z.enum(['image', 'video', 'audio', 'voice', 'document', 'sticker', 'link']),
  url: z.string().min(1).max(4096),
  name: z.string().max(512).optional(),
  mime: z.string().max(255).optional(),
  size: z.number().int().nonnegative().optional(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
});

export const inboundAuthorSchema = z.object({
  externalId: z.string().min(1).max(255),
  name: z
    .string()
    .trim()
    .max(512)
    .transform((v) => v || '—'),
  screenName: z.string().max(255).optional(),
  image: z.string().max(4096).optional(),
  url: z.string().max(4096).optional(),
});
export type InboundAuthor = z.input<typeof inboundAuthorSchema>;

const text = z.string().max(100_000).default('');
const when = z.coerce.date();

export const inboundItemSchema = z.object({
  type: z.literal('item'),
  kind: z.enum(['comment', 'review', 'mention']),
  externalId: z.string().min(1).max(255),
  post: z
    .object({
      externalId: z.string().min(1).max(255),
      text: text,
      url: z.string().max(4096).optional(),
      postedAt: when.optional(),
      attachments: z.array(attachment).max(50).default([]),
    })
    .optional(),
  parentExternalId: z.string().min(1).max(255).optional(),
  author: inboundAuthorSchema,
  /** Written by the account itself (e.g. a reply made in the network's own app). */
  isOwn: z.boolean().default(false),
  /** The network keeps it from public view (YouTube's held for review / likely spam): stored hidden. */
  hidden: z.boolean().default(false),
  text,
  rating: z.number().int().min(0).max(10).optional(),
  attachments: z.array(attachment).max(50).default([]),
  url: z.string().max(4096).optional(),
  createdAt: when,
});

export const inboundMessageSchema = z.object({
  type: z.literal('message'),
  chatExternalId: z.string().min(1).max(255),
  externalId: z.string().min(1).max(255),
  author: inboundAuthorSchema,
  isOwn: z.boolean().default(false),
  text,
  attachments: z.array(attachment).max(50).default([]),
  createdAt: when,
});

/** Something changed on the network about an item or message we may already hold. */
export const inboundChangeSchema = z.object({
  type: z.literal('change'),
  target: z.enum(['item', 'message']),
  externalId: z.string().min(1).max(255),
  /** For messages: the chat the message belongs to. */
  chatExternalId: z.string().max(255).optional(),
  change: z.enum(['edited', 'deleted', 'restored', 'reactions', 'delivery']),
  text: z.string().max(100_000).optional(),
  /** change 'edited' of a review: the stars may change with the text (app stores). */
  rating: z.number().int().min(0).max(10).optional(),
  /** change 'delivery': what the network says became of something we sent (WhatsApp, Viber statuses). */
  delivery: z.enum(['sent', 'delivered', 'read', 'failed']).optional(),
  /** change 'delivery' with 'failed': the network's reason. */
  error: z.string().max(2_000).optional(),
  reactions: z
    .array(
      z.object({
        value: z.string().max(64),
        count: z.number().int().nonnegative(),
        own: z.boolean().optional(),
      }),
    )
    .optional(),
  at: when.optional(),
});

export const inboundEventSchema = z.discriminatedUnion('type', [
  inboundItemSchema,
  inboundMessageSchema,
  inboundChangeSchema,
]);
export type InboundEvent = z.input<typeof inboundEventSchema>;
export type InboundItem = z.output<typeof inboundItemSchema>;
export type InboundMessage = z.output<typeof inboundMessageSchema>;
export type InboundChange = z.output<typeof inboundChangeSchema>;

/** A network's delivery status of a message we sent, as the change event ingestion applies. */
export function deliveryChange(update: {
  chatExternalId: string;
  externalId: string;
  state: 'sent' | 'delivered' | 'read' | 'failed';
  error?: string;
  at: Date;
}): InboundEvent {
  return {
    type: 'change',
    target: 'message',
    chatExternalId: update.chatExternalId,
    externalId: update.externalId,
    change: 'delivery',
    delivery: update.state,
    ...(update.error ? { error: update.error } : {}),
    at: update.at,
  };
}
