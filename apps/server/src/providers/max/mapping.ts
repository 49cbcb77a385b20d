import type { InboundAuthor, InboundEvent } from '../inbound';
import type { MaxAttachment, MaxMessage, MaxUpdate, MaxUser } from './types';

// MAX updates → InboundEvents (PROVIDERS §7e). Message ids (`body.mid`) are global, so they are our
// external ids as they are, and redelivered updates deduplicate on them (PROVIDERS §8.4).
// - `dialog` chats (a user and the bot) → chats/messages, keyed by the dialog's chat_id;
// - group `chat`s → comments under a post that stands for the group (`chat:<chat_id>`), threaded by
//   `link.type = 'reply'`;
// - `channel` messages are the channel's own posts: not inbox items. How comments on channel posts reach a
//   bot (`/messages/{id}/comments`) has no documented update type (UNCONFIRMED), so they are not received.

export const groupPostId = (chatId: number | string) => `chat:${chatId}`;

function author(user: MaxUser | undefined, fallback: string): InboundAuthor {
  if (!user) return { externalId: fallback, name: '—' };
  const name = user.name || [user.first_name, user.last_name].filter(Boolean).join(' ');
  return {
    externalId: String(user.user_id),
    name: name || user.username || String(user.user_id),
    screenName: user.username ?? undefined,
    image: user.avatar_url,
  };
}

type Attachment = NonNullable<Extract<InboundEvent, { type: 'message' }>['attachments']>[number];
const KINDS: Partial<Record<MaxAttachment['type'], Attachment['type']>> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  file: 'document',
  sticker: 'sticker',
};

/** Attachments by their URL, or `max-file:<token>` when MAX gives only a token (payload shapes UNCONFIRMED). */
export function attachmentsOf(list: MaxAttachment[] | null | undefined): Attachment[] {
  return (list ?? []).flatMap((a) => {
    const type = KINDS[a.type];
    const url = a.payload?.url ?? (a.payload?.token ? `max-file:${a.payload.token}` : undefined);
    if (!type || !url) return [];
    return [{ type, url, name: a.filename, size: a.size, width: a.width, height: a.height }];
  });
}

function created(message: MaxMessage, botId: number | null): InboundEvent | null {
  const { recipient, body } = message;
  const text = body.text ?? '';
  const attachments = attachmentsOf(body.attachments);
  if ((!text && attachments.length === 0) || recipient.chat_id === null) return null;
  const isOwn = botId !== null && message.sender?.user_id === botId;
  const base = {
    externalId: body.mid,
    author: author(message.sender, String(recipient.chat_id)),
    isOwn,
    text,
    attachments,
    createdAt: new Date(message.timestamp),
  };
  if (recipient.chat_type === 'dialog')
    return { type: 'message', chatExternalId: String(recipient.chat_id), ...base };
  if (recipient.chat_type === 'chat') {
    const reply = message.link?.type === 'reply' ? message.link.message.mid : undefined;
    return {
      type: 'item',
      kind: 'comment',
      post: { externalId: groupPostId(recipient.chat_id), text: '', attachments: [] },
      parentExternalId: reply,
      url: message.url ?? undefined,
      ...base,
    };
  }
  return null;
}

function edited(message: MaxMessage): InboundEvent | null {
  const { recipient, body } = message;
  const change = {
    change: 'edited' as const,
    externalId: body.mid,
    text: body.text ?? '',
    at: new Date(message.timestamp),
  };
  if (recipient.chat_type === 'dialog' && recipient.chat_id !== null)
    return { type: 'change', target: 'message', chatExternalId: String(recipient.chat_id), ...change };
  if (recipient.chat_type === 'chat') return { type: 'change', target: 'item', ...change };
  return null;
}

export function updateToEvents(update: MaxUpdate, botId: number | null = null): InboundEvent[] {
  if (!('update_type' in update)) return [];
  if (
    (update.update_type === 'message_created' || update.update_type === 'message_edited') &&
    'message' in update
  ) {
    const event =
      update.update_type === 'message_created' ? created(update.message, botId) : edited(update.message);
    return event ? [event] : [];
  }
  if (update.update_type === 'message_removed' && 'message_id' in update) {
    // The update names the chat but not its type: the deletion applies to whichever of ours has the mid.
    const at = new Date(update.timestamp);
    return [
      {
        type: 'change',
        target: 'message',
        chatExternalId: String(update.chat_id),
        externalId: update.message_id,
        change: 'deleted',
        at,
      },
      { type: 'change', target: 'item', externalId: update.message_id, change: 'deleted', at },
    ];
  }
  return []; // bot_started and the rest carry no content for the inbox
}
