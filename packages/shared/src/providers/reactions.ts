import type { ProviderReactions, ReactionItem } from './types';

// Reaction sets — docs/product/entities.md "reactions" and §9 "Provider reaction sets: VK numeric ids, Telegram about 73
// emoji, WhatsApp 12 emoji".

/**
 * Emoji the Telegram Bot API accepts in `ReactionTypeEmoji` (PROVIDERS §1 setMessageReaction; the full
 * list from the Bot API reference). Spelled exactly as Telegram lists them — without the U+FE0F variation
 * selector ('❤', not '❤️') — because any other spelling is rejected. ZWJ sequences are written with an
 * explicit \u200D so the joiner stays visible in review.
 */
export const TELEGRAM_REACTION_EMOJI = [
  '👍',
  '👎',
  '❤',
  '🔥',
  '🥰',
  '👏',
  '😁',
  '🤔',
  '🤯',
  '😱',
  '🤬',
  '😢',
  '🎉',
  '🤩',
  '🤮',
  '💩',
  '🙏',
  '👌',
  '🕊',
  '🤡',
  '🥱',
  '🥴',
  '😍',
  '🐳',
  '❤\u200D🔥',
  '🌚',
  '🌭',
  '💯',
  '🤣',
  '⚡',
  '🍌',
  '🏆',
  '💔',
  '🤨',
  '😐',
  '🍓',
  '🍾',
  '💋',
  '🖕',
  '😈',
  '😴',
  '😭',
  '🤓',
  '👻',
  '👨\u200D💻',
  '👀',
  '🎃',
  '🙈',
  '😇',
  '😨',
  '🤝',
  '✍',
  '🤗',
  '🫡',
  '🎅',
  '🎄',
  '☃',
  '💅',
  '🤪',
  '🗿',
  '🆒',
  '💘',
  '🙉',
  '🦄',
  '😘',
  '💊',
  '🙊',
  '😎',
  '👾',
  '🤷\u200D♂',
  '🤷',
  '🤷\u200D♀',
  '😡',
] as const;

/**
 * Emoji offered for WhatsApp. The Cloud API takes any emoji in a `reaction` message (PROVIDERS §3); docs/product/limits.md
 * fixes the picker at 12: WhatsApp's own six quick reactions first, then six common in support replies.
 */
export const WHATSAPP_REACTION_EMOJI = [
  '👍',
  '❤️',
  '😂',
  '😮',
  '😢',
  '🙏',
  '👏',
  '🔥',
  '🎉',
  '😍',
  '👌',
  '👎',
] as const;

/**
 * VK message reactions are numeric ids (messages.sendReaction `reaction_id`, PROVIDERS §2). The catalogue
 * itself needs a user token (messages.getReactionsAssets), so the 16 ids VK offers in messages are listed
 * here; `image` is an icon key the web maps to VK's picture for that id.
 */
export const VK_REACTION_IDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] as const;

/** Inbound `message_reaction_event.reaction_id` may be any of 1–64 (PROVIDERS §2); accept them all when parsing. */
export const VK_REACTION_ID_MAX = 64;

/** A small set for the built-in sandbox network, enough to exercise the picker end to end. */
export const SANDBOX_REACTION_EMOJI = ['👍', '❤', '😂', '😮', '😢', '🔥'] as const;

const emojiItems = (list: readonly string[]): ReactionItem[] => list.map((value) => ({ value }));

export const VK_REACTIONS: ProviderReactions = {
  messages: true,
  items: VK_REACTION_IDS.map((id) => ({ value: id, image: `vk-reaction-${id}` })),
};

export const TELEGRAM_REACTIONS: ProviderReactions = {
  messages: true,
  items: emojiItems(TELEGRAM_REACTION_EMOJI),
};

export const WHATSAPP_REACTIONS: ProviderReactions = {
  messages: true,
  items: emojiItems(WHATSAPP_REACTION_EMOJI),
};

export const SANDBOX_REACTIONS: ProviderReactions = {
  messages: true,
  items: emojiItems(SANDBOX_REACTION_EMOJI),
};
