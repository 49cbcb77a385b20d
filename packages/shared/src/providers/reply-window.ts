// How long after the customer's last message a network still accepts our reply (issue 21, approval
// mode; PROVIDERS §4a). A reply waiting for a reviewer shows this deadline, and approving it later is
// refused with the network's own failure (failure.messagingWindow) instead of a doomed call.

const HOUR_S = 3_600;

/**
 * Private messages: seconds from the customer's last message (Meta's standard messaging window for
 * Messenger and Instagram, WhatsApp's customer-service window). Networks not listed have no window.
 */
export const MESSAGE_REPLY_WINDOW_S: Readonly<Record<string, number>> = {
  facebook: 24 * HOUR_S,
  instagram: 24 * HOUR_S,
  whatsapp: 24 * HOUR_S,
};

/** 'Direct' (one private reply to a comment): seconds from the comment (Meta: 7 days). */
export const DIRECT_REPLY_WINDOW_S: Readonly<Record<string, number>> = {
  facebook: 7 * 24 * HOUR_S,
  instagram: 7 * 24 * HOUR_S,
};

export type ReplyWindowKind = 'message' | 'direct' | 'comment';

/** The window in seconds for a kind of reply on a network, or null when the network sets none. */
export function replyWindowSeconds(provider: string, kind: ReplyWindowKind): number | null {
  const table = kind === 'message' ? MESSAGE_REPLY_WINDOW_S : kind === 'direct' ? DIRECT_REPLY_WINDOW_S : {};
  return table[provider] ?? null;
}

/** The moment the network stops accepting the reply, counted from `since` (the customer's message). */
export function replyDeadline(provider: string, kind: ReplyWindowKind, since: Date | null): Date | null {
  const window = replyWindowSeconds(provider, kind);
  if (window === null || since === null) return null;
  return new Date(since.getTime() + window * 1000);
}
