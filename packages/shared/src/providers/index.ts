// Provider catalogue — docs/product/entities.md, validation.md, limits.md. Import from here; the files behind it are an implementation detail.
export { providers } from './catalogue';
export * from './connect-fields';
export { isProviderId, PROVIDER_IDS, type ProviderId } from './ids';
export {
  attachmentLimit,
  byteLimit,
  canPerform,
  characterCount,
  checkReplyLimits,
  editWindowSeconds,
  getProvider,
  isWithinEditWindow,
  listConnectableProviders,
  type ProviderRef,
  type ReplyDraft,
  type ReplyLimitCode,
  type ReplyLimitViolation,
  supportsReplyKind,
  textLimit,
  unavailableReason,
  utf8ByteLength,
} from './limits';
export {
  SANDBOX_REACTION_EMOJI,
  TELEGRAM_REACTION_EMOJI,
  VK_REACTION_ID_MAX,
  VK_REACTION_IDS,
  WHATSAPP_REACTION_EMOJI,
} from './reactions';
export {
  DIRECT_REPLY_WINDOW_S,
  MESSAGE_REPLY_WINDOW_S,
  type ReplyWindowKind,
  replyDeadline,
  replyWindowSeconds,
} from './reply-window';
export * from './types';
