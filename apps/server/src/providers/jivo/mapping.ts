import { z } from 'zod';
import type { InboundEvent } from '../inbound';

// Jivo Bot API events → our inbound events. A `CLIENT_MESSAGE` becomes a message in the chat `chat_id`
// (unique within the Jivo account) written by `client_id`; the event's `id` is the message's id, so a
// repeat of the same event (Jivo retries twice after a 3-second timeout) is stored once. Message types
// other than TEXT and their file fields (`file`, `file_name`) are UNCONFIRMED: kept as a link.

const id = z.union([z.string().min(1), z.number()]).transform(String);

const clientMessage = z.object({
  event: z.literal('CLIENT_MESSAGE'),
  id,
  client_id: id,
  chat_id: id,
  sender: z
    .object({
      id: id.optional(),
      name: z.string().optional(),
      url: z.string().optional(),
    })
    .optional(),
  message: z.object({
    type: z.string(),
    text: z.string().optional(),
    file: z.string().optional(),
    file_name: z.string().optional(),
    timestamp: z.number().optional(),
  }),
  channel: z.object({ id: id.optional(), type: z.string().optional() }).optional(),
});
export type JivoClientMessage = z.infer<typeof clientMessage>;

export const eventSchema = z.object({ event: z.string() }).passthrough();

type Attachments = Extract<InboundEvent, { type: 'message' }>['attachments'];

function contentOf(m: JivoClientMessage['message']): { text: string; attachments: Attachments } {
  if (m.type === 'TEXT' || !m.file)
    return { text: m.text ?? (m.type === 'TEXT' ? '' : `[${m.type}]`), attachments: [] };
  const kind = m.type === 'PHOTO' || m.type === 'IMAGE' ? 'image' : m.type === 'VIDEO' ? 'video' : 'document';
  return {
    text: m.text ?? '',
    attachments: [{ type: kind, url: m.file, ...(m.file_name ? { name: m.file_name } : {}) }],
  };
}

/**
 * What a Jivo event carries for us: a client's message, or nothing (`CHAT_CLOSED`,
 * `AGENT_UNAVAILABLE` and events we do not know are acknowledged and dropped).
 */
export function mapJivoEvent(json: unknown, now: Date): InboundEvent[] {
  const parsed = clientMessage.safeParse(json);
  if (!parsed.success) return [];
  const e = parsed.data;
  const at = e.message.timestamp ? new Date(e.message.timestamp * 1000) : now;
  return [
    {
      type: 'message',
      chatExternalId: e.chat_id,
      externalId: e.id,
      author: {
        externalId: e.client_id,
        name: e.sender?.name || `Jivo ${e.client_id}`,
        ...(e.sender?.url ? { url: e.sender.url } : {}),
      },
      ...contentOf(e.message),
      createdAt: at,
    },
  ];
}
