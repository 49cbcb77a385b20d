import { z } from 'zod';
import type { InboundEvent } from '../inbound';
import type { GraphComment, GraphPost } from './client';

// Facebook Page webhooks (`object: "page"`, PROVIDERS.md §4a/§4b) and Graph reads → InboundEvents.
// Comments: `changes[]` with `field: "feed"`, `item: "comment"`; Messenger: `messaging[]`.

const from = z.object({ id: z.string(), name: z.string().optional() });

const feedValue = z
  .object({
    item: z.string(),
    verb: z.string(),
    from: from.optional(),
    post: z.object({ id: z.string(), permalink_url: z.string().optional() }).passthrough().optional(),
    message: z.string().optional(),
    post_id: z.string().optional(),
    comment_id: z.string().optional(),
    parent_id: z.string().optional(),
    created_time: z.union([z.number(), z.string()]).optional(),
    photo: z.string().optional(),
  })
  .passthrough();

/** A `messaging[]` entry of the Messenger Platform, which Instagram's Direct deliveries share. */
export const messagingEntry = z
  .object({
    sender: z.object({ id: z.string() }),
    recipient: z.object({ id: z.string() }),
    timestamp: z.number(),
  })
  .passthrough();

/** The entry's `message` as Messenger sends it (Instagram adds fields of its own). */
export const messengerMessage = z
  .object({
    mid: z.string(),
    text: z.string().optional(),
    is_echo: z.boolean().optional(),
    attachments: z
      .array(
        z.object({
          type: z.string(),
          payload: z.object({ url: z.string().optional() }).passthrough().nullish(),
        }),
      )
      .optional(),
  })
  .passthrough();

const messagingItem = messagingEntry.extend({
  message: messengerMessage.optional(),
  message_edit: z.object({ mid: z.string(), text: z.string().optional() }).passthrough().optional(),
});

export const pageWebhookSchema = z.object({
  object: z.string(),
  entry: z.array(
    z
      .object({
        id: z.string(),
        time: z.number().optional(),
        changes: z.array(z.object({ field: z.string(), value: z.unknown() })).optional(),
        messaging: z.array(z.unknown()).optional(),
      })
      .passthrough(),
  ),
});
export type PageWebhook = z.infer<typeof pageWebhookSchema>;

/** Feed times come as unix seconds; Messenger's as milliseconds. */
function when(value: number | string | undefined, fallback: Date): Date {
  if (typeof value === 'number') return new Date(value < 1e12 ? value * 1000 : value);
  if (typeof value === 'string') {
    const parsed = new Date(value);
    if (!Number.isNaN(parsed.getTime())) return parsed;
  }
  return fallback;
}

const ATTACHMENT_TYPES: Record<string, 'image' | 'video' | 'audio' | 'document'> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  file: 'document',
};

function feedEvents(pageId: string, raw: unknown, now: Date): InboundEvent[] {
  const parsed = feedValue.safeParse(raw);
  if (!parsed.success) return [];
  const value = parsed.data;
  if (value.item !== 'comment' || !value.comment_id) return [];
  const at = when(value.created_time, now);
  if (value.verb === 'remove') {
    return [{ type: 'change', target: 'item', externalId: value.comment_id, change: 'deleted', at }];
  }
  if (value.verb === 'edited') {
    return [
      {
        type: 'change',
        target: 'item',
        externalId: value.comment_id,
        change: 'edited',
        text: value.message ?? '',
        at,
      },
    ];
  }
  if (value.verb !== 'add') return [];
  const postId = value.post_id ?? value.post?.id;
  const author = value.from ?? { id: 'unknown' };
  return [
    {
      type: 'item',
      kind: 'comment',
      externalId: value.comment_id,
      ...(postId
        ? {
            post: {
              externalId: postId,
              text: '',
              url: value.post?.permalink_url ?? `https://www.facebook.com/${postId}`,
            },
          }
        : {}),
      ...(value.parent_id && value.parent_id !== postId ? { parentExternalId: value.parent_id } : {}),
      author: {
        externalId: author.id,
        name: author.name ?? '',
        url: `https://www.facebook.com/${author.id}`,
      },
      // Comments the Page writes itself (in Facebook's own app, or ours echoing back) arrive too.
      isOwn: author.id === pageId,
      text: value.message ?? '',
      attachments: value.photo ? [{ type: 'image', url: value.photo }] : [],
      url: `https://www.facebook.com/${value.comment_id}`,
      createdAt: at,
    },
  ];
}

/**
 * `field: "mention"`: someone mentioned the Page in a post or comment (not in PROVIDERS; Meta's Page
 * webhooks reference: `{item: "post"|"comment", verb, post_id, comment_id?, sender_id, sender_name,
 * message, created_time}` — UNCONFIRMED). The mention becomes an item of kind `mention`.
 */
const mentionValue = z
  .object({
    item: z.string(),
    verb: z.string(),
    post_id: z.string(),
    comment_id: z.string().optional(),
    sender_id: z.string().optional(),
    sender_name: z.string().optional(),
    message: z.string().optional(),
    created_time: z.union([z.number(), z.string()]).optional(),
  })
  .passthrough();

function mentionEvents(raw: unknown, now: Date): InboundEvent[] {
  const parsed = mentionValue.safeParse(raw);
  if (!parsed.success) return [];
  const value = parsed.data;
  const externalId = value.item === 'comment' && value.comment_id ? value.comment_id : value.post_id;
  const at = when(value.created_time, now);
  if (value.verb === 'remove') return [{ type: 'change', target: 'item', externalId, change: 'deleted', at }];
  if (value.verb !== 'add') return [];
  const senderId = value.sender_id ?? 'unknown';
  return [
    {
      type: 'item',
      kind: 'mention',
      externalId,
      ...(value.item === 'comment'
        ? { post: { externalId: value.post_id, text: '', url: `https://www.facebook.com/${value.post_id}` } }
        : {}),
      author: {
        externalId: senderId,
        name: value.sender_name ?? '',
        url: `https://www.facebook.com/${senderId}`,
      },
      text: value.message ?? '',
      url: `https://www.facebook.com/${externalId}`,
      createdAt: at,
    },
  ];
}

function messagingEvents(pageId: string, raw: unknown): InboundEvent[] {
  const parsed = messagingItem.safeParse(raw);
  if (!parsed.success) return [];
  const item = parsed.data;
  const at = new Date(item.timestamp);
  if (item.message_edit) {
    const customer = item.sender.id === pageId ? item.recipient.id : item.sender.id;
    return [
      {
        type: 'change',
        target: 'message',
        chatExternalId: customer,
        externalId: item.message_edit.mid,
        change: 'edited',
        text: item.message_edit.text ?? '',
        at,
      },
    ];
  }
  const message = item.message;
  if (!message) return [];
  const own = message.is_echo === true || item.sender.id === pageId;
  const customer = own ? item.recipient.id : item.sender.id;
  const attachments = (message.attachments ?? []).flatMap(
    (a): Array<{ type: 'image' | 'video' | 'audio' | 'document' | 'link'; url: string }> => {
      const url = a.payload?.url;
      if (!url) return [];
      return [{ type: ATTACHMENT_TYPES[a.type] ?? 'link', url }];
    },
  );
  return [
    {
      type: 'message',
      chatExternalId: customer,
      externalId: message.mid,
      author: own ? { externalId: pageId, name: '' } : { externalId: customer, name: '' },
      isOwn: own,
      text: message.text ?? '',
      attachments,
      createdAt: at,
    },
  ];
}

/** The events of one Page in a delivery (a delivery may carry entries of several Pages). */
export function mapPageWebhook(payload: PageWebhook, pageId: string, now: Date): InboundEvent[] {
  if (payload.object !== 'page') return [];
  const events: InboundEvent[] = [];
  for (const entry of payload.entry) {
    if (entry.id !== pageId) continue;
    for (const change of entry.changes ?? []) {
      if (change.field === 'feed') events.push(...feedEvents(pageId, change.value, now));
      if (change.field === 'mention') events.push(...mentionEvents(change.value, now));
    }
    for (const item of entry.messaging ?? []) events.push(...messagingEvents(pageId, item));
  }
  return events;
}

/** Page ids a delivery is about. */
export function pagesOf(payload: PageWebhook): string[] {
  return [...new Set(payload.entry.map((e) => e.id))];
}

/** A comment read through Graph (the import) as an item with its post. */
export function commentEvent(
  pageId: string,
  post: GraphPost,
  comment: GraphComment,
  now: Date,
): InboundEvent {
  const author = comment.from ?? { id: 'unknown' };
  const image = comment.attachment?.media?.image?.src;
  return {
    type: 'item',
    kind: 'comment',
    externalId: comment.id,
    post: {
      externalId: post.id,
      text: post.message ?? '',
      url: post.permalink_url ?? `https://www.facebook.com/${post.id}`,
      ...(post.created_time ? { postedAt: when(post.created_time, now) } : {}),
    },
    ...(comment.parent?.id && comment.parent.id !== post.id ? { parentExternalId: comment.parent.id } : {}),
    author: { externalId: author.id, name: author.name ?? '', url: `https://www.facebook.com/${author.id}` },
    isOwn: author.id === pageId,
    text: comment.message ?? '',
    attachments: image ? [{ type: 'image', url: image }] : [],
    url: comment.permalink_url ?? `https://www.facebook.com/${comment.id}`,
    createdAt: when(comment.created_time, now),
  };
}
