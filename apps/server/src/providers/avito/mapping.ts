import { z } from 'zod';
import type { InboundEvent } from '../inbound';
import type { AvitoChat, AvitoMessage } from './client';

// Avito Messenger (PROVIDERS.md §7a) → our inbound events. A chat is Avito's chat_id; a message is
// deduplicated on its id (PROVIDERS §8.4 `payload.value.id`). Messages by our own account (author_id ==
// user_id) are skipped as PROVIDERS §7a advises: live, they are mostly the echo of our own reply, which
// can arrive before the send returns and would show twice. Only the import on connect keeps them.

export const webhookSchema = z.object({
  id: z.string().optional(),
  version: z.string().optional(),
  timestamp: z.number().optional(),
  payload: z.object({
    type: z.string(),
    value: z
      .object({
        id: z.string(),
        chat_id: z.string(),
        user_id: z.union([z.number(), z.string()]).optional(),
        author_id: z.union([z.number(), z.string()]),
        created: z.number(),
        type: z.string(),
        content: z.record(z.string(), z.unknown()).optional(),
      })
      .optional(),
  }),
});
export type AvitoWebhook = z.infer<typeof webhookSchema>;

type Attachments = Extract<InboundEvent, { type: 'message' }>['attachments'];

/** The largest of an image's sizes (`{"1280x960": url, …}`, UNCONFIRMED). */
function largest(sizes: Record<string, string>): string | undefined {
  const area = (key: string) => key.split('x').reduce((p, n) => p * (Number(n) || 0), 1);
  return Object.entries(sizes).sort((a, b) => area(b[0]) - area(a[0]))[0]?.[1];
}

function contentOf(m: Pick<AvitoMessage, 'type' | 'content'>): { text: string; attachments: Attachments } {
  const c = m.content ?? {};
  const image = c.image?.sizes ? largest(c.image.sizes) : undefined;
  if (m.type === 'image' && image) return { text: '', attachments: [{ type: 'image', url: image }] };
  if (m.type === 'link' && c.link?.url)
    return { text: [c.link.text, c.link.url].filter(Boolean).join('\n'), attachments: [] };
  if (m.type === 'item' && c.item)
    return { text: [c.item.title, c.item.item_url].filter(Boolean).join('\n'), attachments: [] };
  if (m.type === 'voice' && c.voice?.voice_id) {
    // Voice files are fetched with the token (GET …/getVoiceFiles, UNCONFIRMED): keep the id.
    return { text: '', attachments: [{ type: 'voice', url: `avito-voice:${c.voice.voice_id}` }] };
  }
  return { text: c.text ?? (m.type === 'text' ? '' : `[${m.type}]`), attachments: [] };
}

export interface MappingContext {
  /** Our Avito account id (`user_id` in paths). */
  ownUserId: string;
  accountName: string;
  /** Keep the account's own messages (the import on connect: no reply of ours can be in flight). */
  includeOwn?: boolean;
  /** The counterpart's name where a chat lookup found it. */
  nameOf?: (authorId: string) => string | undefined;
}

/** One Avito message (webhook `payload.value` or a REST message) as an event; null for system notices. */
export function toEvent(
  chatId: string,
  m: Pick<AvitoMessage, 'id' | 'created' | 'type' | 'content'> & { author_id: number | string },
  ctx: MappingContext,
): InboundEvent | null {
  if (m.type === 'system') return null;
  // PROVIDERS §7a: a deleted message changes its type to `deleted`.
  if (m.type === 'deleted') {
    return {
      type: 'change',
      target: 'message',
      externalId: m.id,
      chatExternalId: chatId,
      change: 'deleted',
      at: new Date(m.created * 1000),
    };
  }
  const authorId = String(m.author_id);
  const isOwn = authorId === ctx.ownUserId;
  if (isOwn && !ctx.includeOwn) return null;
  return {
    type: 'message',
    chatExternalId: chatId,
    externalId: m.id,
    isOwn,
    author: isOwn
      ? { externalId: authorId, name: ctx.accountName }
      : { externalId: authorId, name: ctx.nameOf?.(authorId) ?? `Avito ${authorId}` },
    ...contentOf({ type: m.type, content: m.content as AvitoMessage['content'] }),
    createdAt: new Date(m.created * 1000),
  };
}

/** Names of a chat's participants, from `GET …/chats/{chat_id}`. */
export function namesOf(chat: AvitoChat | undefined): (authorId: string) => string | undefined {
  const names = new Map((chat?.users ?? []).map((u) => [String(u.id), u.name]));
  return (authorId) => names.get(authorId);
}
