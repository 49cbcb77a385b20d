import type { Connector } from '../types';
import { exchangeVkCode, verifyVkCredentials, vkAuthorizeUrl } from './account';
import {
  banAuthor,
  deleteComment,
  editComment,
  likeComment,
  reactTo,
  refusesVk,
  reportComment,
  sendChatMessage,
  sendCommentReply,
  sendDirectMessage,
} from './actions';
import { importRecentVk } from './import';
import { pollVk } from './polling';
import { activateVk, deactivateVk } from './subscription';
import { handleVkWebhook } from './webhook';

// VK communities (PROVIDERS §2): wall, photo and video comments and community messages; Callback API
// or Bots Long Poll; replies, 'direct', moderation (user token), likes, message reactions, bans.

export const vkConnector: Connector = {
  id: 'vk',
  verifyCredentials: verifyVkCredentials,
  oauth: {
    configured: (config) => Boolean(config.VK_CLIENT_ID && config.VK_CLIENT_SECRET),
    authorizeUrl: vkAuthorizeUrl,
    exchange: exchangeVkCode,
  },
  activate: activateVk,
  deactivate: deactivateVk,
  handleWebhook: handleVkWebhook,
  poll: pollVk,
  sendReply: sendCommentReply,
  sendDirect: sendDirectMessage,
  sendMessage: sendChatMessage,
  /** Inline keyboards of text buttons (keyboard.ts); a tap comes back as message_new with the payload. */
  buttons: true,
  deleteItem: (ctx, item) => deleteComment(ctx, item, true),
  restoreItem: (ctx, item) => deleteComment(ctx, item, false),
  likeItem: likeComment,
  reportItem: reportComment,
  react: reactTo,
  editReply: editComment,
  blockAuthor: banAuthor,
  importRecent: importRecentVk,
  refuses: refusesVk,
};
