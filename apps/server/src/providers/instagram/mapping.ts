import { z } from 'zod';
import { messagingEntry, messengerMessage, type PageWebhook } from '../facebook/mapping';
import type { InboundEvent } from '../inbound';

// Instagram webhooks (`object: "instagram"`, PROVIDERS.md §4c) → InboundEvents. Entries are keyed by the
// professional account's id; comments come as `changes[]` with `field: "comments"` (or `live_comments`),
// mentions as `field: "mentions"` with ids only (the connector fetches the text), DMs as `messaging[]`.

const commentValue = z
  .object({
    id: z.string(),
    text: z.string().optional(),
    from: z.object({ id: z.string(), username: z.string().optional() }).passthrough().optional(),
    media: z.object({ id: z.string(), media_product_type: z.string().optional() }).passthrough().optional(),
    parent_id: z.string().optional(),
  })
  .passthrough();

export const mentionValue = z
  .object({ media_id: z.string(), comment_id: z.string().optional() })
  .passthrough();
export type MentionValue = z.infer<typeof mentionValue>;

const messagingItem = messagingEntry.extend({
  message: messengerMessage
    .extend({
      is_deleted: z.boolean().optional(),
      reply_to: z
        .object({ story: z.object({ id: z.string().optional(), url: z.string().optional() }).optional() })
        .passthrough()
        .optional(),
    })
    .optional(),
});

const profileUrl = (username: string | undefined) =>
  username ? `https://www.instagram.com/${encodeURIComponent(username)}` : undefined;

const ATTACHMENT_TYPES: Record<string, 'image' | 'video' | 'audio'> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  ig_reel: 'video',
};

function commentEvents(igId: string, raw: unknown, now: Date): InboundEvent[] {
  const parsed = commentValue.safeParse(raw);
  if (!parsed.success) return [];
  const value = parsed.data;
  const author = value.from ?? { id: 'unknown' };
  const mediaId = value.media?.id;
  return [
    {
      type: 'item',
      kind: 'comment',
      externalId: value.id,
      // Instagram gives no permalink in the webhook; the media is the post, opened from the app.
      ...(mediaId ? { post: { externalId: mediaId, text: '' } } : {}),
      ...(value.parent_id ? { parentExternalId: value.parent_id } : {}),
      author: {
        externalId: author.id,
        name: author.username ?? '',
        ...(profileUrl(author.username) ? { url: profileUrl(author.username) } : {}),
      },
      // The account's own comments (replies written in the Instagram app, or ours) arrive too.
      isOwn: author.id === igId,
      text: value.text ?? '',
      attachments: [],
      createdAt: now,
    },
  ];
}

function messagingEvents(igId: string, raw: unknown): InboundEvent[] {
  const parsed = messagingItem.safeParse(raw);
  if (!parsed.success || !parsed.data.message) return [];
  const item = parsed.data;
  const message = item.message!;
  const at = new Date(item.timestamp);
  const own = message.is_echo === true || item.sender.id === igId;
  const customer = own ? item.recipient.id : item.sender.id;
  if (message.is_deleted) {
    return [
      {
        type: 'change',
        target: 'message',
        chatExternalId: customer,
        externalId: message.mid,
        change: 'deleted',
        at,
      },
    ];
  }
  // Story mentions and story replies carry the story's link (it expires with the story).
  const attachments: Array<{ type: 'image' | 'video' | 'audio' | 'link'; url: string }> = [];
  for (const a of message.attachments ?? []) {
    if (a.payload?.url) attachments.push({ type: ATTACHMENT_TYPES[a.type] ?? 'link', url: a.payload.url });
  }
  const story = message.reply_to?.story;
  if (story?.url) attachments.push({ type: 'link', url: story.url });
  const text = message.text ?? '';
  return [
    {
      type: 'message',
      chatExternalId: customer,
      externalId: message.mid,
      author: own ? { externalId: igId, name: '' } : { externalId: customer, name: '' },
      isOwn: own,
      text,
      attachments,
      createdAt: at,
    },
  ];
}

/** The events of one account in a delivery, and the mentions still to be looked up. */
export function mapInstagramWebhook(
  payload: PageWebhook,
  igId: string,
  now: Date,
): { events: InboundEvent[]; mentions: MentionValue[] } {
  const events: InboundEvent[] = [];
  const mentions: MentionValue[] = [];
  if (payload.object !== 'instagram') return { events, mentions };
  for (const entry of payload.entry) {
    if (entry.id !== igId) continue;
    for (const change of entry.changes ?? []) {
      if (change.field === 'comments' || change.field === 'live_comments')
        events.push(...commentEvents(igId, change.value, now));
      if (change.field === 'mentions') {
        const parsed = mentionValue.safeParse(change.value);
        if (parsed.success) mentions.push(parsed.data);
      }
    }
    for (const item of entry.messaging ?? []) events.push(...messagingEvents(igId, item));
  }
  return { events, mentions };
}

/** A looked-up mention as an item of kind `mention` (its media is the post). */
export function mentionEvent(
  mention: MentionValue,
  found: { text?: string; username?: string; timestamp?: string } | undefined,
  now: Date,
): InboundEvent {
  const at = found?.timestamp ? new Date(found.timestamp) : now;
  const externalId = mention.comment_id ?? mention.media_id;
  return {
    type: 'item',
    kind: 'mention',
    externalId,
    ...(mention.comment_id ? { post: { externalId: mention.media_id, text: '' } } : {}),
    author: {
      externalId: found?.username ?? 'unknown',
      name: found?.username ?? '',
      ...(profileUrl(found?.username) ? { url: profileUrl(found?.username) } : {}),
    },
    text: found?.text ?? '',
    attachments: [],
    createdAt: Number.isNaN(at.getTime()) ? now : at,
  };
}

/** A comment read through Graph (the import on connect) as an item with its media. */
export function importedComment(
  igId: string,
  media: { id: string; caption?: string; permalink?: string; timestamp?: string },
  comment: {
    id: string;
    text?: string;
    timestamp?: string;
    username?: string;
    from?: { id: string; username?: string };
  },
  parentId: string | undefined,
  now: Date,
): InboundEvent {
  const username = comment.from?.username ?? comment.username;
  const authorId = comment.from?.id ?? username ?? 'unknown';
  const at = comment.timestamp ? new Date(comment.timestamp) : now;
  const posted = media.timestamp ? new Date(media.timestamp) : undefined;
  return {
    type: 'item',
    kind: 'comment',
    externalId: comment.id,
    post: {
      externalId: media.id,
      text: media.caption ?? '',
      ...(media.permalink ? { url: media.permalink } : {}),
      ...(posted && !Number.isNaN(posted.getTime()) ? { postedAt: posted } : {}),
    },
    ...(parentId ? { parentExternalId: parentId } : {}),
    author: {
      externalId: authorId,
      name: username ?? '',
      ...(profileUrl(username) ? { url: profileUrl(username) } : {}),
    },
    isOwn: authorId === igId,
    text: comment.text ?? '',
    attachments: [],
    createdAt: Number.isNaN(at.getTime()) ? now : at,
  };
}
