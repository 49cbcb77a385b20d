import {
  type AuthorWire,
  type ChatWire,
  EXCERPT_SHORT,
  type ItemWire,
  type MessageWire,
  type PostWire,
} from '@otklik/shared';
import type { authors, chats, items, messages, posts } from '../../../db/schema';

// What items, chats, messages and authors look like on the wire — the same for HTTP and socket pushes.
// The shapes are declared in packages/shared (inbox-wire.ts); these functions are typed to return them.

function unix(d: Date): number;
function unix(d: Date | null | undefined): number | null;
function unix(d: Date | null | undefined) {
  return d ? Math.floor(d.getTime() / 1000) : null;
}

/** The first `length` characters, on a whole code point (docs/product/limits.md excerpts: 100 and 800). */
export function excerpt(text: string, length = EXCERPT_SHORT): string {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length <= length ? chars.join('') : `${chars.slice(0, length).join('')}…`;
}

export function presentAuthor(a: typeof authors.$inferSelect, labelIds: number[] = []): AuthorWire {
  return {
    id: a.id,
    provider: a.provider,
    external_id: a.externalId,
    name: a.name,
    screen_name: a.screenName,
    image: a.image,
    url: a.url,
    blocked_until: a.blockedForever ? null : unix(a.blockedUntil),
    blocked_forever: a.blockedForever,
    is_blocked: a.blockedForever || (a.blockedUntil !== null && a.blockedUntil.getTime() > Date.now()),
    labels: labelIds,
  };
}
export type PresentedAuthor = AuthorWire;

export function presentPost(p: typeof posts.$inferSelect): PostWire {
  return {
    id: p.id,
    external_id: p.externalId,
    text: p.text,
    url: p.url,
    attachments: p.attachments,
    posted_at: unix(p.postedAt),
  };
}

export function presentItem(
  i: typeof items.$inferSelect,
  extras: { author?: PresentedAuthor | null; tags?: number[]; provider?: string } = {},
): ItemWire {
  return {
    id: i.id,
    space_id: i.spaceId,
    object_id: i.objectId,
    provider: extras.provider,
    kind: i.kind,
    post_id: i.postId,
    parent_id: i.parentId,
    external_id: i.externalId,
    author: extras.author ?? null,
    is_own: i.isOwn,
    user_id: i.userId,
    text: i.text,
    excerpt: excerpt(i.text),
    rating: i.rating,
    sentiment: i.sentiment,
    emotion: i.emotion,
    attachments: i.attachments,
    reactions: i.reactions,
    url: i.url,
    status: i.status,
    close_reason: i.closeReason,
    delayed_until: unix(i.delayedUntil),
    /** Back from `delayed` and not opened since (unix seconds). */
    returned_at: unix(i.returnedAt),
    assigned_user_id: i.assignedUserId,
    is_hidden: i.isHidden,
    is_liked: i.isLiked,
    is_deleted: i.isDeleted,
    delivery: i.delivery,
    delivery_error: i.deliveryError,
    tags: extras.tags ?? [],
    created_at: unix(i.createdAt),
    updated_at: unix(i.updatedAt),
    edited_at: unix(i.editedAt),
    first_reply_at: unix(i.firstReplyAt),
  };
}
export type PresentedItem = ItemWire;

export function presentChat(
  c: typeof chats.$inferSelect,
  extras: { author?: PresentedAuthor | null; tags?: number[]; provider?: string } = {},
): ChatWire {
  return {
    id: c.id,
    space_id: c.spaceId,
    object_id: c.objectId,
    provider: extras.provider,
    external_id: c.externalId,
    author: extras.author ?? null,
    status: c.status,
    close_reason: c.closeReason,
    delayed_until: unix(c.delayedUntil),
    returned_at: unix(c.returnedAt),
    assigned_user_id: c.assignedUserId,
    last_message_at: unix(c.lastMessageAt),
    last_message: excerpt(c.lastMessageText),
    last_message_is_own: c.lastMessageIsOwn,
    /** The reading of the customer's latest message (issue 21). */
    sentiment: c.lastSentiment,
    emotion: c.lastEmotion,
    unread_count: c.unreadCount,
    tags: extras.tags ?? [],
    created_at: unix(c.createdAt),
    updated_at: unix(c.updatedAt),
  };
}
export type PresentedChat = ChatWire;

export function presentMessage(m: typeof messages.$inferSelect): MessageWire {
  return {
    id: m.id,
    chat_id: m.chatId,
    external_id: m.externalId,
    is_own: m.isOwn,
    user_id: m.userId,
    text: m.text,
    sentiment: m.sentiment,
    emotion: m.emotion,
    attachments: m.attachments,
    reactions: m.reactions,
    delivery: m.delivery,
    delivery_error: m.deliveryError,
    is_deleted: m.isDeleted,
    reply_to_item_id: m.replyToItemId,
    created_at: unix(m.createdAt),
    edited_at: unix(m.editedAt),
  };
}
export type PresentedMessage = MessageWire;
