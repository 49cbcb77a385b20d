import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { InboundEvent } from '../inbound';
import { WebhookRejected, type WebhookRequest } from '../types';

/**
 * PROVIDERS.md §7d: OK signs nothing; its calls come from three /28 networks only. As for Avito, we
 * subscribe with the account's own secret in the URL (`?secret=…`) and accept only calls that carry it,
 * compared in constant time, so someone who learns the account id still cannot post to it. The address
 * list is not checked here: behind a proxy the peer address is the proxy's (a firewall rule can add it).
 */
export function webhookAddress(webhookUrl: string, secret: string): string {
  return `${webhookUrl}?secret=${encodeURIComponent(secret)}`;
}

export function verifySecret(request: WebhookRequest, secret: string): void {
  const raw = request.query.secret;
  const given = Buffer.from((Array.isArray(raw) ? raw[0] : raw) ?? '');
  const expected = Buffer.from(secret);
  if (!secret || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new WebhookRejected('OK webhook: missing or wrong secret');
  }
}

const id = z.union([z.string(), z.number()]).transform(String);

const attachmentSchema = z.object({
  type: z.string(),
  payload: z.object({ url: z.string().optional(), name: z.string().optional() }).partial().optional(),
});

/** The webhook body of a group message (PROVIDERS §7d); `webhookType` may be absent. */
export const webhookSchema = z.object({
  sender: z.object({ user_id: id, name: z.string().optional() }).optional(),
  recipient: z.object({ chat_id: id }).optional(),
  message: z
    .object({
      text: z.string().optional(),
      mid: id.optional(),
      seq: id.optional(),
      attachments: z.array(attachmentSchema).optional(),
    })
    .optional(),
  timestamp: z.number().optional(),
  webhookType: z.string().optional(),
});
export type OkWebhook = z.infer<typeof webhookSchema>;

type Attachments = Extract<InboundEvent, { type: 'message' }>['attachments'];

function attachmentsOf(list: z.infer<typeof attachmentSchema>[] | undefined): Attachments {
  const out: NonNullable<Attachments> = [];
  for (const a of list ?? []) {
    const url = a.payload?.url;
    if (!url) continue;
    const type = a.type.toUpperCase();
    if (type === 'IMAGE') out.push({ type: 'image', url });
    else if (type === 'VIDEO') out.push({ type: 'video', url });
    else if (type === 'AUDIO') out.push({ type: 'audio', url });
    else out.push({ type: 'document', url, name: a.payload?.name });
  }
  return out;
}

/**
 * A new message in one of the group's chats becomes a message of the chat `recipient.chat_id`, kept once by
 * `message.mid` (PROVIDERS §8.4). Other update types (callbacks, chat system events) carry nothing to store.
 */
export function toEvents(body: OkWebhook, ownId: string | undefined, now: Date): InboundEvent[] {
  if (body.webhookType && body.webhookType !== 'MESSAGE_CREATED') return [];
  const { sender, recipient, message } = body;
  if (!sender || !recipient || !message?.mid) return [];
  return [
    {
      type: 'message',
      chatExternalId: recipient.chat_id,
      externalId: message.mid,
      author: { externalId: sender.user_id, name: sender.name ?? 'OK' },
      isOwn: ownId !== undefined && sender.user_id === ownId,
      text: message.text ?? '',
      attachments: attachmentsOf(message.attachments),
      createdAt: body.timestamp ? new Date(body.timestamp) : now,
    },
  ];
}
