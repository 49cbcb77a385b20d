import type { ProviderId } from '../ids';
import { VK_REACTIONS } from '../reactions';
import type { ProviderEntry } from '../types';
import { actions, VK_COMMENT_EDIT_WINDOW_S } from './common';

// Social networks and community platforms: comments under posts and videos, and private messages where the network has them.

export const socialNetworks = {
  vk: {
    id: 'vk',
    name: 'VK',
    longName: { ru: 'Сообщество ВКонтакте', en: 'VK community' },
    description: {
      ru: 'Комментарии на стене и личные сообщения сообщества ВКонтакте.',
      en: 'Wall comments and private messages of a VK community.',
    },
    url: 'https://vk.com',
    color: '#0077FF',
    icon: 'brand-vk',
    hidden: false,
    settings: ['exclude', 'exclude_messages', 'chats', 'stickers', 'reactions'],
    comments: ['comment'],
    messages: true,
    // PROVIDERS §2: wall.deleteComment / restoreComment and likes.add exist (user token); there is no
    // hide method — moderation is delete or groups.ban. Reactions are messages.sendReaction.
    actions: actions({
      delete: true,
      restore: true,
      reply: true,
      like: true,
      edit_comment: VK_COMMENT_EDIT_WINDOW_S,
      direct: true,
      block: true,
      react: true,
      // PROVIDERS §2: wall/photos/video.reportComment (a user token), reason 0 = spam.
      report: true,
    }),
    length: { message: 4000, comment: 10000 },
    upload: { message: 5, comment: 5 },
    reactions: VK_REACTIONS,
    connect: 'oauth',
  },

  facebook: {
    id: 'facebook',
    name: 'Facebook',
    longName: { ru: 'Страница Facebook', en: 'Facebook Page' },
    description: {
      ru: 'Комментарии к публикациям страницы и сообщения Messenger.',
      en: 'Comments on Page posts and Messenger conversations.',
    },
    url: 'https://www.facebook.com',
    color: '#0866FF',
    icon: 'brand-facebook',
    hidden: false,
    settings: ['exclude', 'exclude_messages'],
    comments: ['comment', 'mention'],
    messages: true,
    // PROVIDERS §4b comment endpoints: reply, edit own, hide/unhide, delete, like. §4a: private reply to a
    // comment (one message, within 7 days). Messenger reactions take any emoji; docs/product/limits.md defines no set.
    actions: actions({ delete: true, reply: true, like: true, hide: true, edit_comment: true, direct: true }),
    length: { message: 2000, comment: 4000 },
    upload: { message: 1, comment: 1 },
    reactions: null,
    connect: 'oauth',
  },

  instagram: {
    id: 'instagram',
    name: 'Instagram',
    longName: { ru: 'Профессиональный аккаунт Instagram', en: 'Instagram professional account' },
    description: {
      ru: 'Комментарии, упоминания и Direct профессионального аккаунта Instagram.',
      en: 'Comments, mentions and Direct messages of an Instagram professional account.',
    },
    url: 'https://www.instagram.com',
    color: '#E4405F',
    icon: 'brand-instagram',
    hidden: false,
    settings: ['exclude', 'exclude_messages'],
    comments: ['comment', 'mention'],
    messages: true,
    // PROVIDERS §4c: reply, hide, delete, private reply; no comment likes and no comment edit.
    actions: actions({ delete: true, reply: true, hide: true, direct: true }),
    // docs/product/validation.md: 550 characters and, separately, 1000 UTF-8 bytes (PROVIDERS §4c) — both apply.
    length: { message: 550, messageBytes: 1000, comment: 2000 },
    upload: { message: 1 },
    reactions: null,
    connect: 'oauth',
  },

  threads: {
    id: 'threads',
    name: 'Threads',
    longName: { ru: 'Профиль Threads', en: 'Threads profile' },
    description: {
      ru: 'Ответы на публикации профиля Threads.',
      en: 'Replies to the posts of a Threads profile.',
    },
    url: 'https://www.threads.net',
    color: '#000000',
    icon: 'brand-threads',
    hidden: false,
    settings: ['exclude'],
    comments: ['comment'],
    messages: false,
    // Not covered by PROVIDERS; the Threads API lets a profile reply and hide replies to its own posts.
    actions: actions({ reply: true, hide: true }),
    // SPEC §3 gives 2000, but the Threads API refuses text over 500 characters (its posts and replies
    // documentation: "Text posts are limited to 500 characters"); the composer holds to what gets through.
    length: { comment: 500 },
    upload: {},
    reactions: null,
    connect: 'oauth',
  },

  twitter: {
    id: 'twitter',
    name: 'X (Twitter)',
    longName: { ru: 'Аккаунт X (Twitter)', en: 'X (Twitter) account' },
    description: {
      ru: 'Ответы, упоминания и личные сообщения аккаунта X (Twitter).',
      en: 'Replies, mentions and direct messages of an X (Twitter) account.',
    },
    url: 'https://x.com',
    color: '#000000',
    icon: 'brand-x',
    hidden: false,
    settings: ['exclude', 'exclude_messages'],
    comments: ['comment', 'mention'],
    messages: true,
    // PROVIDERS §7f: hide replies and likes exist; DELETE /2/tweets works only on our own posts.
    // delete: our own posts only (DELETE /2/tweets/:id); the connector refuses a customer's up front.
    actions: actions({ reply: true, like: true, hide: true, delete: true }),
    length: { message: 9000, comment: 280 },
    upload: { message: 1, comment: 4 },
    reactions: null,
    connect: 'oauth',
    deleteOwnOnly: true,
  },

  ok: {
    id: 'ok',
    name: 'OK',
    longName: { ru: 'Группа в Одноклассниках', en: 'Odnoklassniki group' },
    description: {
      ru: 'Комментарии и сообщения группы в Одноклассниках.',
      en: 'Comments and messages of an Odnoklassniki (OK.ru) group.',
    },
    url: 'https://ok.ru',
    color: '#EE8208',
    icon: 'brand-ok',
    hidden: false,
    settings: ['exclude', 'exclude_messages'],
    comments: ['comment'],
    messages: true,
    // PROVIDERS §7d: deleting and editing are UNCONFIRMED, so only replies are offered.
    actions: actions({ reply: true }),
    length: { message: 2000, comment: 3000 },
    upload: { message: 1 },
    reactions: null,
    connect: 'oauth',
  },

  youtube: {
    id: 'youtube',
    name: 'YouTube',
    longName: { ru: 'Канал YouTube', en: 'YouTube channel' },
    description: {
      ru: 'Комментарии к видео канала YouTube.',
      en: 'Comments on the videos of a YouTube channel.',
    },
    url: 'https://www.youtube.com',
    color: '#FF0000',
    icon: 'brand-youtube',
    hidden: false,
    settings: ['exclude'],
    comments: ['comment'],
    messages: false,
    // PROVIDERS §5: setModerationStatus holds (hide), publishes (unhide) or rejects (delete) others'
    // comments; comments.delete and comments.update work on our own replies only; likes are read-only.
    // Banning needs a comment to reject with it (banAuthor), not an author alone: not offered.
    actions: actions({ reply: true, hide: true, delete: true, edit_comment: true }),
    // docs/product/validation.md gives "youtube 10000/5000" although YouTube has no private messages; kept verbatim.
    length: { message: 10000, comment: 5000 },
    upload: {},
    reactions: null,
    connect: 'oauth',
  },

  tiktok: {
    id: 'tiktok',
    name: 'TikTok',
    longName: { ru: 'Бизнес-аккаунт TikTok', en: 'TikTok business account' },
    description: {
      ru: 'Комментарии к видео бизнес-аккаунта TikTok.',
      en: 'Comments on the videos of a TikTok business account.',
    },
    url: 'https://www.tiktok.com',
    color: '#FE2C55',
    icon: 'brand-tiktok',
    hidden: false,
    settings: ['exclude'],
    comments: ['comment'],
    // PROVIDERS §7g: direct messages are known from one third-party client only.
    messages: false,
    // PROVIDERS §7g: reply, like, hide/unhide. Not offered, with the reason: delete (the API deletes only
    // the account's own comments, never a customer's), direct (DMs are known from one third-party client
    // only). README's per-network table says the same.
    actions: actions({ reply: true, like: true, hide: true }),
    length: { comment: 150 },
    upload: {},
    reactions: null,
    connect: 'oauth',
  },

  discord: {
    id: 'discord',
    name: 'Discord',
    longName: { ru: 'Бот Discord', en: 'Discord bot' },
    description: {
      ru: 'Сообщения на каналах сервера и личные сообщения боту Discord.',
      en: 'Server channel messages and direct messages to a Discord bot.',
    },
    url: 'https://discord.com',
    color: '#5865F2',
    icon: 'brand-discord',
    hidden: false,
    settings: ['exclude', 'exclude_messages', 'chats'],
    comments: ['comment'],
    messages: true,
    // PROVIDERS §7c: delete (MANAGE_MESSAGES), PATCH own messages. Reactions take any emoji; docs/product/limits.md
    // defines no set for Discord.
    actions: actions({ delete: true, reply: true, edit_comment: true }),
    // docs/product/validation.md "discord 2000" applies to both kinds (Discord `content` is 2000 either way).
    length: { message: 2000, comment: 2000 },
    upload: { message: 5, comment: 5 },
    reactions: null,
    formHint: {
      ru: 'Вставьте токен бота из Discord Developer Portal и включите Message Content Intent.',
      en: 'Paste the bot token from the Discord Developer Portal and enable the Message Content intent.',
    },
    connect: 'bot_token',
  },
} satisfies Partial<Record<ProviderId, ProviderEntry>>;
