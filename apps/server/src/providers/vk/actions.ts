import type { MessageKey } from '@otklik/shared';
import {
  type ChatRef,
  type Connector,
  type ConnectorContext,
  ConnectorError,
  type ItemRef,
  type OutgoingContent,
  type ReactionTarget,
  type SentRef,
} from '../types';
import {
  communityToken,
  groupIdOf,
  guidFor,
  randomIdFor,
  toConnectorError,
  userToken,
  vkApi,
} from './client';
import { commentAddress, parseVkId, peerOf, SURFACES, vkId } from './ids';
import { vkKeyboardOf } from './keyboard';

// Replies, messages and moderation (PROVIDERS §2 "Outbound methods"). Comment moderation, editing and
// likes need a community admin's user token; the community token does messages and wall replies.

/**
 * A stable key for this send, reused on retries: the outbox passes `outbox:<id>`. Without one (a
 * direct call) each attempt gets a fresh random_id / guid.
 */
const idempotencyKeyOf = (content: OutgoingContent): string | undefined => content.idempotencyKey;

/** Files go as links under the text: uploading to VK (photos.getMessagesUploadServer …) is not done yet. */
function bodyOf(content: OutgoingContent): string {
  return [content.text, ...content.attachments.map((a) => a.url)].filter(Boolean).join('\n');
}

const groupOf = (ctx: ConnectorContext) => groupIdOf(ctx.credentials, ctx.object.externalId);
/** The calls made with the admin user token (asAdmin below); photo/video comment replies too. */
const ADMIN_METHODS = new Set<keyof Connector>([
  'deleteItem',
  'restoreItem',
  'likeItem',
  'editReply',
  'blockAuthor',
  'reportItem',
]);

/**
 * Refused up front by the send path (Connector.refuses): moderation without the admin user token, and
 * reactions on comments (VK comments take likes only).
 */
export function refusesVk(
  credentials: Record<string, string>,
  call: { method: keyof Connector; item?: Pick<ItemRef, 'externalId'> },
): MessageKey | null {
  if (call.method === 'react' && call.item) return 'reply.notSupported';
  const surface = call.item ? parseVkId(call.item.externalId)?.surface : undefined;
  const needsUser =
    ADMIN_METHODS.has(call.method) ||
    (call.method === 'sendReply' && surface !== undefined && SURFACES[surface].replyNeedsUser);
  return needsUser && !credentials.user_token ? 'account.userTokenRequired' : null;
}

const asCommunity = (ctx: ConnectorContext) => vkApi(ctx, communityToken(ctx.credentials));
const asAdmin = (ctx: ConnectorContext) => vkApi(ctx, userToken(ctx.credentials));

/** A public reply under a comment: wall.createComment (or photos/video.createComment) as the community. */
export async function sendCommentReply(
  ctx: ConnectorContext,
  target: ItemRef,
  content: OutgoingContent,
): Promise<SentRef> {
  const comment = commentAddress(target.externalId);
  const surface = SURFACES[comment.surface];
  const post = parseVkId(target.postExternalId);
  if (!post)
    throw new ConnectorError('permanent', 'VK: the comment has no post to reply under', {
      reason: { key: 'failure.noThread', params: { network: 'VK' } },
    });
  const api = surface.replyNeedsUser ? asAdmin(ctx) : asCommunity(ctx);
  const sent = await api<{ comment_id: number }>(surface.create, {
    owner_id: comment.owner,
    [surface.targetField]: post.id,
    message: bodyOf(content),
    reply_to_comment: comment.id,
    // PROVIDERS §2: wall.createComment takes from_group=<group_id>; photos/video take a flag.
    from_group: comment.surface === 'wall' ? groupOf(ctx) : 1,
    guid: guidFor(idempotencyKeyOf(content)),
  });
  return { externalId: vkId(comment.surface, comment.owner, sent.comment_id) };
}

interface SendResult {
  peer_id: number;
  message_id?: number;
  conversation_message_id?: number;
  error?: { code: number; description: string };
}

/**
 * messages.send with `peer_ids`, so VK answers with the conversation_message_id our messages are keyed
 * by (with `peer_id` it gives only the global id, which is 0 for bots in chats — PROVIDERS §2).
 */
export async function sendToPeer(ctx: ConnectorContext, peerId: number, content: OutgoingContent) {
  const results = await asCommunity(ctx)<SendResult[]>('messages.send', {
    peer_ids: peerId,
    random_id: randomIdFor(idempotencyKeyOf(content)),
    ...vkKeyboardOf(content, bodyOf(content)),
  });
  const sent = Array.isArray(results) ? (results.find((r) => r.peer_id === peerId) ?? results[0]) : undefined;
  if (!sent)
    throw new ConnectorError('temporary', 'VK did not say whether the message was sent', {
      reason: { key: 'failure.badAnswer', params: { network: 'VK' } },
    });
  if (sent.error) throw toConnectorError({ error_code: sent.error.code, error_msg: sent.error.description });
  if (sent.conversation_message_id === undefined) return { externalId: null };
  return { externalId: String(sent.conversation_message_id) };
}

export function sendChatMessage(ctx: ConnectorContext, chat: ChatRef, content: OutgoingContent) {
  return sendToPeer(ctx, peerOf(chat.externalId), content);
}

/** 'Direct': the commenter's conversation with the community is their user id (PROVIDERS §2 peer ids). */
export function sendDirectMessage(ctx: ConnectorContext, target: ItemRef, content: OutgoingContent) {
  if (!target.authorExternalId)
    throw new ConnectorError('permanent', 'VK: the comment has no author', {
      reason: { key: 'failure.noAuthor', params: { network: 'VK' } },
    });
  return sendToPeer(ctx, peerOf(target.authorExternalId), content);
}

export async function deleteComment(ctx: ConnectorContext, item: ItemRef, deleted: boolean) {
  const comment = commentAddress(item.externalId);
  const surface = SURFACES[comment.surface];
  await asAdmin(ctx)(deleted ? surface.remove : surface.restore, {
    owner_id: comment.owner,
    comment_id: comment.id,
  });
}

/** A complaint about a comment as the admin user (wall/photos/video.reportComment); reason 0 = spam. */
export async function reportComment(ctx: ConnectorContext, item: ItemRef) {
  const comment = commentAddress(item.externalId);
  await asAdmin(ctx)(SURFACES[comment.surface].report, {
    owner_id: comment.owner,
    comment_id: comment.id,
    reason: 0,
  });
}

export async function likeComment(ctx: ConnectorContext, item: ItemRef, liked: boolean) {
  const comment = commentAddress(item.externalId);
  await asAdmin(ctx)(liked ? 'likes.add' : 'likes.delete', {
    type: SURFACES[comment.surface].likeType,
    owner_id: comment.owner,
    item_id: comment.id,
  });
}

/** wall.editComment (user token); the 43200 s window is the catalogue's, checked by the send path. */
export async function editComment(ctx: ConnectorContext, reply: ItemRef, content: OutgoingContent) {
  const comment = commentAddress(reply.externalId);
  await asAdmin(ctx)(SURFACES[comment.surface].edit, {
    owner_id: comment.owner,
    comment_id: comment.id,
    message: bodyOf(content),
  });
}

/** messages.sendReaction / deleteReaction by cmid; VK has no reactions on comments, only likes. */
export async function reactTo(ctx: ConnectorContext, target: ReactionTarget, value: string | null) {
  if (target.kind === 'item')
    throw new ConnectorError('permanent', 'VK: comments take likes, not reactions', {
      reason: { key: 'failure.notSupported', params: { network: 'VK' } },
    });
  const peer = peerOf(target.chat.externalId);
  const cmid = Number(target.messageExternalId);
  if (!Number.isInteger(cmid))
    throw new ConnectorError('permanent', 'VK: the message has no cmid', {
      reason: { key: 'failure.badReference', params: { network: 'VK' } },
    });
  if (value === null) {
    await asCommunity(ctx)('messages.deleteReaction', { peer_id: peer, cmid });
    return;
  }
  const reactionId = Number(value);
  if (!Number.isInteger(reactionId))
    throw new ConnectorError('permanent', `VK: unknown reaction ${value}`, {
      reason: { key: 'failure.badReference', params: { network: 'VK' }, detail: String(value) },
    });
  await asCommunity(ctx)('messages.sendReaction', { peer_id: peer, cmid, reaction_id: reactionId });
}

/** groups.ban / groups.unban: a user-token method in VK's schema. */
export async function banAuthor(
  ctx: ConnectorContext,
  author: { externalId: string },
  block: { blocked: boolean; until: Date | null },
) {
  const ownerId = peerOf(author.externalId);
  const api = asAdmin(ctx);
  if (!block.blocked) {
    await api('groups.unban', { group_id: groupOf(ctx), owner_id: ownerId });
    return;
  }
  await api('groups.ban', {
    group_id: groupOf(ctx),
    owner_id: ownerId,
    end_date: block.until ? Math.floor(block.until.getTime() / 1000) : undefined,
    comment_visible: 1,
  });
}
