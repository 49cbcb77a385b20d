import { z } from 'zod';
import type { InboundAuthor, InboundEvent } from '../inbound';
import { mapAttachments } from './attachments';
import { SURFACES, type Surface, vkId } from './ids';
import { buttonDataOf } from './keyboard';

// Callback API / Bots Long Poll updates (the same objects, PROVIDERS §2) → our inbound events. Authors
// carry only VK ids here; `withProfiles` (profiles.ts) fills in names afterwards.

export const callbackEventSchema = z.object({
  type: z.string(),
  group_id: z.number().optional(),
  event_id: z.string().optional(),
  v: z.string().optional(),
  object: z.unknown().optional(),
  secret: z.string().optional(),
});
export type VkCallbackEvent = z.infer<typeof callbackEventSchema>;
type InboundItemEvent = Extract<InboundEvent, { type: 'item' }>;

const messageSchema = z.object({
  id: z.number().optional(),
  conversation_message_id: z.number().optional(),
  date: z.number(),
  update_time: z.number().optional(),
  peer_id: z.number(),
  from_id: z.number(),
  out: z.number().optional(),
  text: z.string().optional(),
  attachments: z.array(z.unknown()).optional(),
  /** A keyboard button's payload (a JSON string) when the customer tapped one. */
  payload: z.string().optional(),
});
export type VkMessage = z.infer<typeof messageSchema>;

const commentSchema = z.object({
  id: z.number(),
  from_id: z.number(),
  date: z.number(),
  text: z.string().optional(),
  owner_id: z.number().optional(),
  post_id: z.number().optional(),
  post_owner_id: z.number().optional(),
  photo_id: z.number().optional(),
  photo_owner_id: z.number().optional(),
  video_id: z.number().optional(),
  video_owner_id: z.number().optional(),
  parents_stack: z.array(z.number()).optional(),
  reply_to_comment: z.number().nullish(),
  attachments: z.array(z.unknown()).optional(),
});
export type VkComment = z.infer<typeof commentSchema>;

// PROVIDERS §2: the schema calls the deleter `user_id`, vk-io and dev.vk.com `deleter_id`; either is fine.
const deletedCommentSchema = z.object({
  id: z.number(),
  owner_id: z.number().optional(),
  post_id: z.number().optional(),
  photo_id: z.number().optional(),
  video_id: z.number().optional(),
  deleter_id: z.number().optional(),
  user_id: z.number().optional(),
});

const reactionSchema = z.object({
  reacted_id: z.number(),
  peer_id: z.number(),
  cmid: z.number(),
  reaction_id: z.number().optional(),
});

/** The community the events belong to. */
export interface VkAccount {
  groupId: number;
  name: string;
  image?: string | null;
}

const at = (unixSeconds: number) => new Date(unixSeconds * 1000);

export function authorOf(fromId: number, account: VkAccount): InboundAuthor {
  if (fromId === -account.groupId) {
    return {
      externalId: String(fromId),
      name: account.name,
      image: account.image ?? undefined,
      url: `https://vk.com/club${account.groupId}`,
    };
  }
  if (fromId < 0)
    return { externalId: String(fromId), name: `club${-fromId}`, url: `https://vk.com/club${-fromId}` };
  return { externalId: String(fromId), name: `id${fromId}`, url: `https://vk.com/id${fromId}` };
}

/** Messages are addressed by conversation_message_id within the peer (PROVIDERS §2). */
const messageIdOf = (m: VkMessage) =>
  m.conversation_message_id !== undefined ? String(m.conversation_message_id) : `id${m.id ?? 0}`;

export function messageEvent(m: VkMessage, account: VkAccount, isOwn: boolean): InboundEvent {
  return {
    type: 'message',
    chatExternalId: String(m.peer_id),
    externalId: messageIdOf(m),
    author: authorOf(m.from_id, account),
    isOwn: isOwn || m.out === 1 || m.from_id === -account.groupId,
    // A tap on one of our keyboard buttons answers with the button's data (keyboard.ts).
    text: buttonDataOf(m.payload) ?? m.text ?? '',
    attachments: mapAttachments(m.attachments),
    createdAt: at(m.date),
  };
}

function targetOf(c: VkComment | z.infer<typeof deletedCommentSchema>, surface: Surface) {
  return c[SURFACES[surface].targetField];
}

function ownerOf(c: VkComment, account: VkAccount): number {
  return c.owner_id ?? c.post_owner_id ?? c.photo_owner_id ?? c.video_owner_id ?? -account.groupId;
}

/** A comment under a wall post, photo or video; its post is the thing it sits under. */
export function commentEvent(
  c: VkComment,
  surface: Surface,
  account: VkAccount,
  post?: { text: string; postedAt?: Date },
): InboundItemEvent | undefined {
  const owner = ownerOf(c, account);
  const target = targetOf(c, surface);
  if (target === undefined) return undefined;
  const postUrl = SURFACES[surface].url(owner, target);
  const parent = c.reply_to_comment ?? c.parents_stack?.at(-1);
  return {
    type: 'item',
    kind: 'comment',
    externalId: vkId(surface, owner, c.id),
    post: { externalId: vkId(surface, owner, target), text: post?.text ?? '', url: postUrl, ...post },
    parentExternalId: parent ? vkId(surface, owner, parent) : undefined,
    author: authorOf(c.from_id, account),
    isOwn: c.from_id === -account.groupId,
    text: c.text ?? '',
    attachments: mapAttachments(c.attachments),
    url: surface === 'wall' ? `${postUrl}?reply=${c.id}` : postUrl,
    createdAt: at(c.date),
  };
}

function commentChange(type: string, object: unknown, surface: Surface, account: VkAccount): InboundEvent[] {
  const action = type.slice(SURFACES[surface].eventPrefix.length);
  if (action === 'delete') {
    const parsed = deletedCommentSchema.safeParse(object);
    if (!parsed.success) return [];
    const owner = parsed.data.owner_id ?? -account.groupId;
    return [
      { type: 'change', target: 'item', externalId: vkId(surface, owner, parsed.data.id), change: 'deleted' },
    ];
  }
  const parsed = commentSchema.safeParse(object);
  if (!parsed.success) return [];
  const comment = parsed.data;
  const item = commentEvent(comment, surface, account);
  if (!item) return [];
  if (action === 'new') return [item];
  // An edit or a restore of a comment we never saw stores it first; one we hold is changed.
  if (action === 'edit')
    return [
      item,
      { type: 'change', target: 'item', externalId: item.externalId, change: 'edited', text: item.text },
    ];
  if (action === 'restore')
    return [item, { type: 'change', target: 'item', externalId: item.externalId, change: 'restored' }];
  return [];
}

/** One Callback API / Long Poll update → inbound events (unknown or malformed types → none). */
/** message_new since API 5.103: {message, client_info}. Built once: a zod schema costs to build. */
const wrappedMessageSchema = z.object({ message: messageSchema });

export function mapUpdate(event: VkCallbackEvent, account: VkAccount): InboundEvent[] {
  const { type, object } = event;
  for (const surface of Object.keys(SURFACES) as Surface[]) {
    if (type.startsWith(SURFACES[surface].eventPrefix)) return commentChange(type, object, surface, account);
  }
  switch (type) {
    case 'message_new': {
      // Since API 5.103 message_new's object is {message, client_info} (PROVIDERS §2).
      const wrapped = wrappedMessageSchema.safeParse(object);
      const parsed = wrapped.success ? wrapped.data.message : messageSchema.safeParse(object).data;
      return parsed ? [messageEvent(parsed, account, false)] : [];
    }
    case 'message_reply': {
      // Written by the community (in VK itself, or by us): history, not work.
      const parsed = messageSchema.safeParse(object);
      return parsed.success ? [messageEvent(parsed.data, account, true)] : [];
    }
    case 'message_edit': {
      const parsed = messageSchema.safeParse(object);
      if (!parsed.success) return [];
      const m = parsed.data;
      return [
        {
          type: 'change',
          target: 'message',
          chatExternalId: String(m.peer_id),
          externalId: messageIdOf(m),
          change: 'edited',
          text: m.text ?? '',
          at: at(m.update_time ?? m.date),
        },
      ];
    }
    case 'message_reaction_event': {
      // Carries one person's reaction (absent reaction_id: taken back), not the message's totals.
      const parsed = reactionSchema.safeParse(object);
      if (!parsed.success) return [];
      const r = parsed.data;
      const own = r.reacted_id === -account.groupId;
      return [
        {
          type: 'change',
          target: 'message',
          chatExternalId: String(r.peer_id),
          externalId: String(r.cmid),
          change: 'reactions',
          reactions: r.reaction_id ? [{ value: String(r.reaction_id), count: 1, own }] : [],
        },
      ];
    }
    default:
      return [];
  }
}

/** The update types the connector subscribes to (groups.setCallbackSettings / setLongPollSettings). */
export const HANDLED_EVENT_TYPES = [
  'message_new',
  'message_reply',
  'message_edit',
  'message_reaction_event',
  ...(['wall_reply_', 'photo_comment_', 'video_comment_'] as const).flatMap((p) =>
    ['new', 'edit', 'delete', 'restore'].map((a) => `${p}${a}`),
  ),
];
