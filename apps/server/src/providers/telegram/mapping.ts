import type { InboundAuthor, InboundEvent } from '../inbound';
import type { TgCallbackQuery, TgChat, TgMessage, TgReactionType, TgUpdate, TgUser } from './types';

// Telegram updates → InboundEvents (PROVIDERS §1 "Update shape").
//
// Ids: a message_id is unique only within its chat, so every message we store is `${chat.id}:${message_id}`
// (the connector splits it back for replies, edits, deletes and reactions).
// - private chats → chats/messages (chatExternalId = the chat id, which is the user's id);
// - a channel's discussion group: the channel post arrives there as an automatic forward
//   (`is_automatic_forward`); comments reply to it, and replies to comments carry `message_thread_id` =
//   that forward's id. The post is `${group}:${forward id}`, comments are items under it, and a reply to a
//   comment is threaded through `reply_to_message`;
// - other group messages → comments under a post that stands for the group itself (`${group}`).
// Not delivered by the Bot API at all: deletions of messages (there is no update for them) — a message
// deleted in Telegram stays in the inbox until an operator deletes it.

export const messageKey = (chatId: number | string, messageId: number) => `${chatId}:${messageId}`;

/** `${chat}:${message}` → its parts; null for ids that are not ours (e.g. the group's pseudo-post). */
export function parseMessageKey(externalId: string): { chatId: string; messageId: number } | null {
  const match = /^(-?\d+):(\d+)$/.exec(externalId);
  return match ? { chatId: match[1]!, messageId: Number(match[2]) } : null;
}

const userName = (u: { first_name?: string; last_name?: string }) =>
  [u.first_name, u.last_name].filter(Boolean).join(' ');

function userAuthor(user: TgUser): InboundAuthor {
  return {
    externalId: String(user.id),
    name: userName(user) || user.username || String(user.id),
    screenName: user.username,
    url: user.username ? `https://t.me/${user.username}` : undefined,
  };
}

function chatAuthor(chat: TgChat): InboundAuthor {
  return {
    externalId: String(chat.id),
    name: chat.title || userName(chat) || String(chat.id),
    screenName: chat.username,
    url: chat.username ? `https://t.me/${chat.username}` : undefined,
  };
}

/** The author shown for a message: a channel or anonymous admin speaks as `sender_chat`. */
function authorOf(message: TgMessage): InboundAuthor {
  if (message.sender_chat) return chatAuthor(message.sender_chat);
  if (message.from) return userAuthor(message.from);
  return chatAuthor(message.chat);
}

type Attachment = NonNullable<Extract<InboundEvent, { type: 'message' }>['attachments']>[number];

/** Media as refs to Telegram's file ids (`tg-file:<file_id>`; getFile turns one into a download link). */
export function attachmentsOf(message: TgMessage): Attachment[] {
  const out: Attachment[] = [];
  const ref = (id: string) => `tg-file:${id}`;
  const largest = message.photo?.at(-1); // PhotoSize[] lists sizes, largest last
  if (largest)
    out.push({
      type: 'image',
      url: ref(largest.file_id),
      size: largest.file_size,
      width: largest.width,
      height: largest.height,
    });
  const file = (type: Attachment['type'], f: TgMessage['document']) => {
    if (!f) return;
    out.push({
      type,
      url: ref(f.file_id),
      name: f.file_name,
      mime: f.mime_type,
      size: f.file_size,
      width: f.width,
      height: f.height,
    });
  };
  file('document', message.document);
  file('voice', message.voice);
  file('audio', message.audio);
  file('video', message.video ?? message.animation ?? message.video_note);
  file('sticker', message.sticker);
  return out;
}

const textOf = (m: TgMessage) => m.text ?? m.caption ?? '';
const isGroup = (chat: TgChat) => chat.type === 'group' || chat.type === 'supergroup';
const at = (unix: number) => new Date(unix * 1000);

function messageEvent(message: TgMessage, botId: number | null): InboundEvent | null {
  const attachments = attachmentsOf(message);
  const text = textOf(message);
  if (!text && attachments.length === 0) return null; // service messages (joins, pins, …)
  return {
    type: 'message',
    chatExternalId: String(message.chat.id),
    externalId: messageKey(message.chat.id, message.message_id),
    author: authorOf(message),
    isOwn: botId !== null && message.from?.id === botId,
    text,
    attachments,
    createdAt: at(message.date),
  };
}

function postOf(message: TgMessage) {
  const chat = message.chat;
  const reply = message.reply_to_message;
  // A comment on a channel post replies to the post's automatic forward in the discussion group.
  if (reply?.is_automatic_forward) {
    const origin = reply.forward_origin;
    const channel = origin?.chat ?? reply.sender_chat;
    return {
      post: {
        externalId: messageKey(chat.id, reply.message_id),
        text: textOf(reply),
        url:
          channel?.username && origin?.message_id
            ? `https://t.me/${channel.username}/${origin.message_id}`
            : undefined,
        postedAt: at(origin?.date ?? reply.date),
        attachments: attachmentsOf(reply),
      },
      parent: undefined,
    };
  }
  const parent = reply ? messageKey(chat.id, reply.message_id) : undefined;
  // A reply further down a comment thread: the thread id is the automatic forward's id.
  if (message.message_thread_id && reply) {
    return {
      post: { externalId: messageKey(chat.id, message.message_thread_id), text: '', attachments: [] },
      parent: reply.message_id === message.message_thread_id ? undefined : parent,
    };
  }
  // An ordinary group conversation: the group itself stands in for the post.
  return {
    post: {
      externalId: String(chat.id),
      text: chat.title ?? '',
      url: chat.username ? `https://t.me/${chat.username}` : undefined,
      attachments: [],
    },
    parent,
  };
}

function commentEvent(message: TgMessage, botId: number | null): InboundEvent | null {
  if (message.is_automatic_forward) return null; // the channel post itself, stored with its first comment
  const attachments = attachmentsOf(message);
  const text = textOf(message);
  if (!text && attachments.length === 0) return null;
  const { post, parent } = postOf(message);
  return {
    type: 'item',
    kind: 'comment',
    externalId: messageKey(message.chat.id, message.message_id),
    post,
    parentExternalId: parent,
    author: authorOf(message),
    isOwn: botId !== null && message.from?.id === botId,
    text,
    attachments,
    url: message.chat.username ? `https://t.me/${message.chat.username}/${message.message_id}` : undefined,
    createdAt: at(message.date),
  };
}

const emojiOf = (r: TgReactionType) =>
  r.type === 'emoji' ? r.emoji : r.type === 'custom_emoji' ? `custom:${r.custom_emoji_id}` : '⭐';

function reactionsChange(
  chat: TgChat,
  messageId: number,
  reactions: Array<{ value: string; count: number }>,
  date: number,
): InboundEvent {
  const externalId = messageKey(chat.id, messageId);
  return chat.type === 'private'
    ? {
        type: 'change',
        target: 'message',
        chatExternalId: String(chat.id),
        externalId,
        change: 'reactions',
        reactions,
        at: at(date),
      }
    : { type: 'change', target: 'item', externalId, change: 'reactions', reactions, at: at(date) };
}

/**
 * A press of one of our inline buttons in a private chat → the customer's message whose text is the
 * button's data (a CSI score, modules/csi/answers.ts). Its id is per press (`${chat}:cb${update_id}`).
 */
function callbackEvent(query: TgCallbackQuery, updateId: number): InboundEvent | null {
  const chat = query.message?.chat;
  if (chat?.type !== 'private' || !query.data) return null;
  return {
    type: 'message',
    chatExternalId: String(chat.id),
    externalId: `${chat.id}:cb${updateId}`,
    author: userAuthor(query.from),
    isOwn: false,
    text: query.data,
    attachments: [],
    createdAt: new Date(),
  };
}

/** One update → what it means for the inbox (usually one event, none for what we do not keep). */
export function updateToEvents(update: TgUpdate, botId: number | null = null): InboundEvent[] {
  const out: Array<InboundEvent | null> = [];
  if (update.message) {
    const m = update.message;
    if (m.chat.type === 'private') out.push(messageEvent(m, botId));
    else if (isGroup(m.chat)) out.push(commentEvent(m, botId));
  }
  if (update.edited_message) {
    const m = update.edited_message;
    const edit = { change: 'edited' as const, text: textOf(m), at: at(m.edit_date ?? m.date) };
    const externalId = messageKey(m.chat.id, m.message_id);
    if (m.chat.type === 'private')
      out.push({ type: 'change', target: 'message', chatExternalId: String(m.chat.id), externalId, ...edit });
    else if (isGroup(m.chat)) out.push({ type: 'change', target: 'item', externalId, ...edit });
  }
  // channel_post / edited_channel_post: a post alone is not an inbox item; it is stored (with its text)
  // when the first comment under it arrives, because that comment carries the automatic forward.
  if (update.message_reaction) {
    // Per-user reactions (PROVIDERS §1 MessageReactionUpdated): the Bot API gives this user's new set, not
    // totals; in a private chat that is the customer's whole set.
    const r = update.message_reaction;
    const reactions = r.new_reaction.map((x) => ({ value: emojiOf(x), count: 1 }));
    out.push(reactionsChange(r.chat, r.message_id, reactions, r.date));
  }
  if (update.callback_query) out.push(callbackEvent(update.callback_query, update.update_id));
  if (update.message_reaction_count) {
    // Anonymous reactions (channels, groups with hidden reactors) come as totals.
    const r = update.message_reaction_count;
    const reactions = r.reactions.map((x) => ({ value: emojiOf(x.type), count: x.total_count }));
    out.push(reactionsChange(r.chat, r.message_id, reactions, r.date));
  }
  return out.filter((e): e is InboundEvent => e !== null);
}
