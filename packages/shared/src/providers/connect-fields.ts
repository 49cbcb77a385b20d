import type { ProviderId } from './ids';

// What the add-account screen asks for when a network is connected by pasting credentials
// (catalogue `connect` of 'bot_token' or 'credentials'), and what the server validates. Networks
// connected through an OAuth popup may also offer these fields as the manual way.

export interface ConnectField {
  name: string;
  /** Shown as a password field and never sent back by the API. */
  secret: boolean;
  required: boolean;
  label: { ru: string; en: string };
  hint?: { ru: string; en: string };
  /** Several lines (a PEM key, a JSON file): a text area, which may also be filled from a file of this type. */
  multiline?: { accept?: string };
}

const field = (
  name: string,
  label: ConnectField['label'],
  opts: {
    secret?: boolean;
    required?: boolean;
    hint?: ConnectField['hint'];
    multiline?: ConnectField['multiline'];
  } = {},
): ConnectField => ({
  name,
  label,
  secret: opts.secret ?? false,
  required: opts.required ?? true,
  hint: opts.hint,
  ...(opts.multiline ? { multiline: opts.multiline } : {}),
});

// The review aggregators: one app per account, the catalogue id naming the store it is in.
const APPFOLLOW_FIELDS = [
  field(
    'api_token',
    { ru: 'API-токен AppFollow', en: 'AppFollow API token' },
    {
      secret: true,
      hint: {
        ru: 'Владелец или администратор аккаунта AppFollow создаёт его на странице API management.',
        en: 'An AppFollow account owner or admin creates it on the API management page.',
      },
    },
  ),
  field(
    'ext_id',
    { ru: 'ID приложения в магазине', en: 'App ID in the store' },
    {
      hint: {
        ru: 'Как в AppFollow: имя пакета (ru.example.app) или числовой ID в App Store.',
        en: 'As AppFollow shows it: the package name (com.example.app) or the numeric App Store ID.',
      },
    },
  ),
];
const ASODESK_FIELDS = [
  field('api_token', { ru: 'API-токен Asodesk', en: 'Asodesk API token' }, { secret: true }),
  field(
    'app_id',
    { ru: 'ID приложения в магазине', en: 'App ID in the store' },
    {
      hint: {
        ru: 'Как в Asodesk: имя пакета (ru.example.app) или числовой ID в App Store.',
        en: 'As Asodesk shows it: the package name (com.example.app) or the numeric App Store ID.',
      },
    },
  ),
];

export const CONNECT_FIELDS: Partial<Record<ProviderId, ConnectField[]>> = {
  appfollow: APPFOLLOW_FIELDS,
  af_googleplay: APPFOLLOW_FIELDS,
  af_itunes: APPFOLLOW_FIELDS,
  af_huawei: APPFOLLOW_FIELDS,
  af_xstore: APPFOLLOW_FIELDS,
  asodesk: ASODESK_FIELDS,
  asodesk_googleplay: ASODESK_FIELDS,
  asodesk_appstore: ASODESK_FIELDS,
  asodesk_rustore: ASODESK_FIELDS,
  telegram: [
    field(
      'bot_token',
      { ru: 'Токен бота', en: 'Bot token' },
      {
        secret: true,
        hint: {
          ru: 'Создайте бота у @BotFather и вставьте его токен. Чтобы получать комментарии канала, добавьте бота администратором в группу обсуждения.',
          en: "Create a bot with @BotFather and paste its token. To receive a channel's comments, make the bot an administrator of its discussion group.",
        },
      },
    ),
  ],
  max: [
    field(
      'access_token',
      { ru: 'Токен бота MAX', en: 'MAX bot token' },
      {
        secret: true,
        hint: {
          ru: 'Токен из раздела «Чат-боты» платформы MAX для партнёров.',
          en: "The token from the MAX partner platform's Chat bots section.",
        },
      },
    ),
  ],
  jivo: [
    field(
      'provider_id',
      { ru: 'ID провайдера ботов в Jivo', en: 'Jivo bot provider ID' },
      {
        hint: {
          ru: 'Его выдаёт Jivo по запросу на подключение своего бота.',
          en: 'Jivo issues it when you ask to connect your own bot (Bot API).',
        },
      },
    ),
    field(
      'token',
      { ru: 'Токен бота', en: 'Bot token' },
      {
        secret: true,
        hint: {
          ru: 'Токен, согласованный с Jivo: с ним ответы операторов уходят в чаты Jivo.',
          en: "The token agreed with Jivo: operators' answers go to Jivo's chats with it.",
        },
      },
    ),
  ],
  viber: [
    field(
      'auth_token',
      { ru: 'Токен бота Viber', en: 'Viber bot token' },
      {
        secret: true,
        hint: {
          ru: 'Токен из панели администратора Viber (Edit Info → Token).',
          en: 'The token from the Viber admin panel (Edit Info → Token).',
        },
      },
    ),
  ],
  discord: [
    field(
      'bot_token',
      { ru: 'Токен бота Discord', en: 'Discord bot token' },
      {
        secret: true,
        hint: {
          ru: 'Developer Portal → ваше приложение → Bot → Reset Token. Включите Message Content Intent.',
          en: 'Developer Portal → your application → Bot → Reset Token. Turn on the Message Content intent.',
        },
      },
    ),
    field(
      'channel_ids',
      { ru: 'ID каналов', en: 'Channel IDs' },
      {
        required: false,
        hint: {
          ru: 'Через запятую; пусто — все каналы, которые видит бот. Личные сообщения боту приходят всегда.',
          en: 'Comma-separated; empty means every channel the bot can see. Direct messages to the bot always come in.',
        },
      },
    ),
  ],
  whatsapp: [
    field('phone_number_id', { ru: 'ID номера телефона', en: 'Phone number ID' }),
    field('access_token', { ru: 'Токен доступа', en: 'Access token' }, { secret: true }),
    field(
      'app_secret',
      { ru: 'Секрет приложения', en: 'App secret' },
      {
        secret: true,
        hint: {
          ru: 'Нужен для проверки подписи вебхуков (X-Hub-Signature-256).',
          en: 'Used to verify webhook signatures (X-Hub-Signature-256).',
        },
      },
    ),
  ],
  avito: [
    field('client_id', { ru: 'Client ID', en: 'Client ID' }),
    field('client_secret', { ru: 'Client secret', en: 'Client secret' }, { secret: true }),
  ],
  googleplay: [
    field(
      'package_name',
      { ru: 'Имя пакета приложения', en: 'App package name' },
      { hint: { ru: 'Например, com.example.app', en: 'For example, com.example.app' } },
    ),
    field(
      'service_account_json',
      { ru: 'Ключ сервисного аккаунта (JSON)', en: 'Service account key (JSON)' },
      {
        secret: true,
        multiline: { accept: '.json,application/json' },
        hint: {
          ru: 'Создайте сервисный аккаунт в Google Cloud, скачайте его JSON-ключ и выдайте аккаунту в Play Console право «Отвечать на отзывы».',
          en: 'Create a service account in Google Cloud, download its JSON key and grant it "Reply to reviews" in Play Console.',
        },
      },
    ),
  ],
  rustore: [
    field(
      'package_name',
      { ru: 'Имя пакета приложения', en: 'App package name' },
      { hint: { ru: 'Например, ru.example.app', en: 'For example, ru.example.app' } },
    ),
    field('key_id', { ru: 'ID ключа', en: 'Key ID' }),
    field(
      'private_key',
      { ru: 'Приватный ключ', en: 'Private key' },
      {
        secret: true,
        multiline: { accept: '.pem,.key,.txt' },
        hint: {
          ru: 'Ключ из RuStore Консоли (Компания → API RuStore): ID и приватный ключ, выданные при его создании.',
          en: 'A key from RuStore Console (Company → RuStore API): the ID and the private key given when it was created.',
        },
      },
    ),
  ],
  ok: [
    field(
      'access_token',
      { ru: 'Ключ доступа группы', en: 'Group access key' },
      {
        secret: true,
        hint: {
          ru: 'Настройки группы → Управление → «Работа с API» → «Получить ключ доступа». Новый ключ отменяет прежний.',
          en: 'Group settings → Management → "Work with API" → "Get access key". A new key cancels the previous one.',
        },
      },
    ),
  ],
  userecho: [
    field(
      'alias',
      { ru: 'Адрес UserEcho', en: 'UserEcho address' },
      {
        hint: {
          ru: 'Например, shop.userecho.com или просто shop',
          en: 'For example, shop.userecho.com or just shop',
        },
      },
    ),
    field(
      'access_token',
      { ru: 'API-ключ (access token)', en: 'API key (access token)' },
      {
        secret: true,
        hint: {
          ru: 'Настройки → Дополнительно → API. Ответы будут от имени сотрудника, чей это ключ.',
          en: 'Setup → Advanced features → API. Replies are posted as the agent whose key it is.',
        },
      },
    ),
  ],
  useresponse: [
    field(
      'site',
      { ru: 'Адрес UseResponse', en: 'UseResponse address' },
      {
        hint: {
          ru: 'Например, feedback.example.com или name.useresponse.com',
          en: 'For example, feedback.example.com or name.useresponse.com',
        },
      },
    ),
    field(
      'api_key',
      { ru: 'API-ключ', en: 'API key' },
      {
        secret: true,
        hint: {
          ru: 'Профиль → Настройки → API (API включается в Администрирование → Приложения). Ответы будут от имени владельца ключа.',
          en: 'Profile → Options → API Settings (turn the API on in Administration → Applications). Replies are posted as the key’s owner.',
        },
      },
    ),
  ],
  vk: [
    field('group_id', { ru: 'ID сообщества', en: 'Community ID' }),
    field('access_token', { ru: 'Ключ доступа сообщества', en: 'Community access token' }, { secret: true }),
    field(
      'user_token',
      { ru: 'Ключ администратора (необязательно)', en: 'Admin user token (optional)' },
      {
        secret: true,
        required: false,
        hint: {
          ru: 'Нужен, чтобы удалять, восстанавливать и редактировать комментарии, ставить лайки и блокировать авторов: ключ сообщества этого не умеет.',
          en: 'Needed to delete, restore and edit comments, to like them and to ban authors: a community token cannot.',
        },
      },
    ),
  ],
};

const RELAYS: Array<[string, readonly ConnectField[]]> = [
  ['AppFollow', APPFOLLOW_FIELDS],
  ['Asodesk', ASODESK_FIELDS],
];

/** The aggregator whose API a relayed store's credentials are checked with (af_*, asodesk_*), else null. */
export function relayedBy(provider: ProviderId): string | null {
  const fields = CONNECT_FIELDS[provider];
  return RELAYS.find(([, list]) => list === fields)?.[0] ?? null;
}

export function connectFields(provider: ProviderId): ConnectField[] {
  return CONNECT_FIELDS[provider] ?? [];
}
