import type { ProviderId } from '../ids';
import { TELEGRAM_REACTIONS, WHATSAPP_REACTIONS } from '../reactions';
import type { ProviderEntry } from '../types';
import { actions } from './common';

// Messengers and chat services: private conversations (Telegram also channel comments, Avito also reviews).

export const messengers = {
  telegram: {
    id: 'telegram',
    name: 'Telegram',
    longName: { ru: 'Бот Telegram', en: 'Telegram bot' },
    description: {
      ru: 'Личные сообщения боту, группы и комментарии к постам канала.',
      en: 'Private messages to a bot, groups and comments on channel posts.',
    },
    url: 'https://telegram.org',
    color: '#26A5E4',
    icon: 'brand-telegram',
    hidden: false,
    settings: ['exclude', 'exclude_messages', 'chats', 'stickers', 'reactions'],
    comments: ['comment'],
    messages: true,
    // PROVIDERS §1: deleteMessage (no undo, within 48 h), editMessageText for our own messages,
    // banChatMember, setMessageReaction; no hide method and no likes. 'Direct' is sendMessage to the
    // commenter, which Telegram refuses (403) unless that user has started the bot.
    actions: actions({
      delete: true,
      reply: true,
      edit_comment: true,
      block: true,
      react: true,
      direct: true,
    }),
    // docs/product/validation.md: 4096/4096, captions of messages with attachments 1024.
    length: { message: 4096, comment: 4096, messageAttach: 1024, commentAttach: 1024 },
    upload: { message: 5, comment: 5 },
    reactions: TELEGRAM_REACTIONS,
    formHint: {
      ru: 'Создайте бота у @BotFather и вставьте его токен. Чтобы получать комментарии канала, сделайте бота администратором связанной группы обсуждений.',
      en: 'Create a bot with @BotFather and paste its token. To receive channel comments, make the bot an admin of the linked discussion group.',
    },
    connect: 'bot_token',
  },

  viber: {
    id: 'viber',
    name: 'Viber',
    longName: { ru: 'Бот Viber', en: 'Viber bot' },
    description: {
      ru: 'Сообщения пользователей боту Viber.',
      en: 'Messages from users to a Viber bot.',
    },
    url: 'https://www.viber.com',
    color: '#7360F2',
    icon: 'brand-viber',
    hidden: false,
    settings: ['exclude_messages'],
    comments: [],
    messages: true,
    // PROVIDERS §7b: no delete, edit, reaction or reply-to in the bot API.
    actions: actions({ reply: true }),
    // docs/product/validation.md says 10000; PROVIDERS §7b says the API takes 7000. The spec is the source of truth here.
    length: { message: 10000 },
    upload: {},
    reactions: null,
    formHint: {
      ru: 'Вставьте токен бота из панели администратора Viber.',
      en: 'Paste the bot token from the Viber admin panel.',
    },
    connect: 'bot_token',
  },

  whatsapp: {
    id: 'whatsapp',
    name: 'WhatsApp',
    longName: { ru: 'Номер WhatsApp Business', en: 'WhatsApp Business number' },
    description: {
      ru: 'Сообщения на номер WhatsApp Business (Cloud API).',
      en: 'Messages to a WhatsApp Business number (Cloud API).',
    },
    url: 'https://www.whatsapp.com',
    color: '#25D366',
    icon: 'brand-whatsapp',
    hidden: false,
    settings: ['exclude_messages', 'reactions'],
    comments: [],
    messages: true,
    // PROVIDERS §3: reply with `context` and `type:"reaction"`; no delete or edit of sent messages.
    actions: actions({ reply: true, react: true }),
    // docs/product/validation.md "whatsapp 4096"; media captions 1024 per PROVIDERS §3.
    length: { message: 4096, messageAttach: 1024 },
    upload: { message: 1 },
    reactions: WHATSAPP_REACTIONS,
    formHint: {
      ru: 'Укажите ID номера телефона, постоянный токен системного пользователя и секрет приложения Meta.',
      en: 'Enter the phone number ID, a permanent system-user token and the Meta app secret.',
    },
    connect: 'credentials',
  },

  jivo: {
    id: 'jivo',
    name: 'Jivo',
    longName: { ru: 'Чат Jivo', en: 'Jivo chat' },
    description: {
      ru: 'Чаты с посетителями сайта из Jivo.',
      en: 'Website visitor chats from Jivo.',
    },
    url: 'https://www.jivo.ru',
    color: '#1FAD4E',
    icon: 'brand-jivo',
    hidden: false,
    settings: ['exclude_messages'],
    comments: [],
    messages: true,
    actions: actions({ reply: true }),
    // docs/product/validation.md names no limit for Jivo.
    length: {},
    upload: {},
    reactions: null,
    formHint: {
      ru: 'Укажите ID провайдера ботов, выданный Jivo, и токен бота. Затем передайте Jivo адрес для событий из настроек аккаунта.',
      en: 'Enter the bot provider ID Jivo issued and the bot token. Then give Jivo the events address from the account settings.',
    },
    connect: 'credentials',
  },

  avito: {
    id: 'avito',
    name: 'Avito',
    longName: { ru: 'Аккаунт Авито', en: 'Avito account' },
    description: {
      ru: 'Отзывы и сообщения Авито Мессенджера.',
      en: 'Reviews and Avito Messenger conversations.',
    },
    url: 'https://www.avito.ru',
    color: '#00AAFF',
    icon: 'brand-avito',
    hidden: false,
    settings: ['exclude_messages'],
    comments: ['review'],
    messages: true,
    // PROVIDERS §7a: the only delete is of our own message within 1 h; nothing else.
    actions: actions({ reply: true }),
    length: { message: 1000, comment: 1000 },
    upload: { message: 1 },
    reactions: null,
    connect: 'oauth',
  },

  max: {
    id: 'max',
    name: 'MAX',
    longName: { ru: 'Бот MAX', en: 'MAX bot' },
    description: {
      ru: 'Сообщения боту MAX и комментарии к постам канала.',
      en: 'Messages to a MAX bot and comments on channel posts.',
    },
    url: 'https://max.ru',
    color: '#7B61FF',
    icon: 'brand-max',
    hidden: false,
    settings: ['exclude', 'exclude_messages', 'chats'],
    comments: ['comment'],
    messages: true,
    // PROVIDERS §7e: DELETE and PUT /messages (and the comment equivalents); reactions UNCONFIRMED.
    actions: actions({ delete: true, reply: true, edit_comment: true }),
    // docs/product/validation.md "max 4000" applies to both kinds; attachments only on messages ("max message 1").
    length: { message: 4000, comment: 4000 },
    upload: { message: 1 },
    reactions: null,
    formHint: {
      ru: 'Вставьте токен бота из кабинета business.max.ru.',
      en: 'Paste the bot token from business.max.ru.',
    },
    connect: 'bot_token',
  },
} satisfies Partial<Record<ProviderId, ProviderEntry>>;
