import { ConnectorError } from '../types';

// Our external ids for VK things. Comment ids are unique per owner and per kind of object (wall, photo,
// video), so each id carries both: wall `-123_9876`, photo `photo-123_55`, video `video-123_77`; the
// post/photo/video they sit under is `-123_321` (PROVIDERS §2: a community's owner_id is negative).
// Chats are the `peer_id`; messages the `conversation_message_id`, because in chats a community bot
// sees `id: 0` (PROVIDERS §2 "message_new").

export type Surface = 'wall' | 'photo' | 'video';

interface SurfaceMethods {
  prefix: string;
  /** The comment event family in the Callback API. */
  eventPrefix: string;
  /** Field naming the post/photo/video in comment payloads and create calls. */
  targetField: 'post_id' | 'photo_id' | 'video_id';
  create: string;
  edit: string;
  remove: string;
  restore: string;
  /** The complaint about a comment (user token; `reason` 0 = spam … 8, VK schema). */
  report: string;
  likeType: string;
  /** photos/video.createComment take a user token only (VK schema); wall.createComment takes either. */
  replyNeedsUser: boolean;
  url: (owner: number, target: number) => string;
}

export const SURFACES: Record<Surface, SurfaceMethods> = {
  wall: {
    prefix: '',
    eventPrefix: 'wall_reply_',
    targetField: 'post_id',
    create: 'wall.createComment',
    edit: 'wall.editComment',
    remove: 'wall.deleteComment',
    restore: 'wall.restoreComment',
    report: 'wall.reportComment',
    likeType: 'comment',
    replyNeedsUser: false,
    url: (owner, post) => `https://vk.com/wall${owner}_${post}`,
  },
  photo: {
    prefix: 'photo',
    eventPrefix: 'photo_comment_',
    targetField: 'photo_id',
    create: 'photos.createComment',
    edit: 'photos.editComment',
    remove: 'photos.deleteComment',
    restore: 'photos.restoreComment',
    report: 'photos.reportComment',
    likeType: 'photo_comment',
    replyNeedsUser: true,
    url: (owner, photo) => `https://vk.com/photo${owner}_${photo}`,
  },
  video: {
    prefix: 'video',
    eventPrefix: 'video_comment_',
    targetField: 'video_id',
    create: 'video.createComment',
    edit: 'video.editComment',
    remove: 'video.deleteComment',
    restore: 'video.restoreComment',
    report: 'video.reportComment',
    likeType: 'video_comment',
    replyNeedsUser: true,
    url: (owner, video) => `https://vk.com/video${owner}_${video}`,
  },
};

export function vkId(surface: Surface, owner: number, id: number): string {
  return `${SURFACES[surface].prefix}${owner}_${id}`;
}

export interface ParsedId {
  surface: Surface;
  owner: number;
  id: number;
}

export function parseVkId(externalId: string | null): ParsedId | undefined {
  const match = /^(photo|video)?(-?\d+)_(\d+)$/.exec(externalId ?? '');
  if (!match) return undefined;
  return {
    surface: (match[1] as Surface | undefined) ?? 'wall',
    owner: Number(match[2]),
    id: Number(match[3]),
  };
}

/** A comment we can address on VK, or a permanent refusal (an id we did not make). */
export function commentAddress(externalId: string): ParsedId {
  const parsed = parseVkId(externalId);
  if (!parsed)
    throw new ConnectorError('permanent', `VK: not a comment id: ${externalId}`, {
      reason: { key: 'failure.badReference', params: { network: 'VK' }, detail: externalId },
    });
  return parsed;
}

export function peerOf(chatExternalId: string): number {
  const peer = Number(chatExternalId);
  if (!Number.isInteger(peer) || peer === 0)
    throw new ConnectorError('permanent', `VK: not a peer id: ${chatExternalId}`, {
      reason: { key: 'failure.badReference', params: { network: 'VK' }, detail: chatExternalId },
    });
  return peer;
}
