// Why a network action failed, in both languages (issue 13: failure texts were Russian-only or
// English-only). A failure is stored (outbox.last_error, items/messages.delivery_error, objects.error)
// as an encoded message key with params and, where the network gave one, its own raw text as a detail;
// it is put into words when shown, in the reader's language (failureText in messages.ts). A stored text
// that is not encoded is the network's own words and is shown as a quoted detail.

export const failureRu = {
  'failure.network': 'Ответ сети',
  'failure.auth': 'Сеть не приняла ключ доступа: переподключите аккаунт',
  'failure.rateLimited': 'Сеть просит подождать: слишком много запросов',
  'failure.temporary': 'Сеть временно не ответила',
  'failure.permanent': 'Сеть отказала в действии',
  'failure.unreachable': '{{network}} недоступен',
  'failure.badAnswer': '{{network}} ответил не так, как ожидалось',
  'failure.reconnect': '{{network}}: не хватает данных подключения — переподключите аккаунт',
  'failure.notSupported': '{{network}} не позволяет это действие',
  'failure.badReference': '{{network}}: неизвестная ссылка на запись',
  'failure.noAuthor': '{{network}}: у комментария нет автора, которому можно ответить',
  'failure.noThread': '{{network}}: не найдено, где ответить на комментарий',
  'failure.communityNotFound': '{{network}}: сообщество не найдено',
  'failure.banUsersOnly': '{{network}}: заблокировать можно только пользователя',
  'failure.noBanGroup': '{{network}}: не найдена группа бота, где можно заблокировать пользователя',
  'failure.notWebAddress': 'Это не веб-адрес',
  'failure.privateAddress': '{{host}} — внутренний адрес, запрос к нему запрещён',
  'failure.accountOff': 'Аккаунт отключён',
  'failure.notConnectedHere': '{{network}}: сеть не подключена на этом сервере',
  'failure.recordDeleted': 'Запись удалена',
  'failure.recordNotSent': 'Запись ещё не отправлена в сеть',
  'failure.chatDeleted': 'Диалог удалён',
  'failure.messageDeleted': 'Сообщение удалено',
  'failure.messageNotSent': 'Сообщение ещё не отправлено в сеть',
  'failure.sandboxNotFound': 'Запись не найдена в песочнице',
  'failure.commentDeleted': 'Комментарий удалён, ответить нельзя',
  'failure.ownReplyOnly': 'Можно изменить только свой ответ',
  'failure.messagingWindow':
    '{{network}}: с последнего сообщения клиента прошло больше 24 часов — сеть примет ответ, когда клиент напишет снова',
  'failure.privateReplyUsed':
    '{{network}}: личный ответ на этот комментарий уже отправлен или прошло больше 7 дней — второй сеть не примет',
  'failure.accessRevoked': '{{network}}: доступ к аккаунту отозван или истёк — переподключите аккаунт',
  'failure.quotaExceeded':
    '{{network}}: дневная квота запросов исчерпана, работа продолжится после её сброса',
  'failure.youtubeNoChannel': 'У этого аккаунта Google нет канала YouTube',
  'failure.badServiceAccount':
    'Это не ключ сервисного аккаунта Google: нужен JSON-файл ключа (type service_account, client_email, private_key)',
  'failure.badPrivateKey':
    '{{network}}: приватный ключ не читается — вставьте его целиком, вместе со строками BEGIN и END',
  'failure.wrongStore':
    '{{network}}: это приложение из другого магазина ({{store}}) — выберите подключение для этого магазина',
  'failure.unreadableCredentials':
    'Ключи аккаунта не открываются ключом SECRET_KEY этого сервера: переподключите аккаунт или запустите сервер с прежним ключом',
} as const;

export type FailureKey = keyof typeof failureRu;

export const failureEn: Record<FailureKey, string> = {
  'failure.network': 'The network answered',
  'failure.auth': 'The network did not accept the access key: reconnect the account',
  'failure.rateLimited': 'The network asks to wait: too many requests',
  'failure.temporary': 'The network did not answer for now',
  'failure.permanent': 'The network refused the action',
  'failure.unreachable': '{{network}} is unreachable',
  'failure.badAnswer': '{{network}} answered something unexpected',
  'failure.reconnect': '{{network}}: connection data is missing — reconnect the account',
  'failure.notSupported': '{{network}} does not allow this action',
  'failure.badReference': '{{network}}: unknown reference to a record',
  'failure.noAuthor': '{{network}}: the comment has no author to answer',
  'failure.noThread': '{{network}}: nowhere to answer the comment was found',
  'failure.communityNotFound': '{{network}}: community not found',
  'failure.banUsersOnly': '{{network}}: only a user can be blocked',
  'failure.noBanGroup': "{{network}}: no group of the bot's is known to block the user in",
  'failure.notWebAddress': 'Not a web address',
  'failure.privateAddress': '{{host}} is an internal address; requests to it are not allowed',
  'failure.accountOff': 'The account is disconnected',
  'failure.notConnectedHere': '{{network}}: the network is not connected on this server',
  'failure.recordDeleted': 'The record was deleted',
  'failure.recordNotSent': 'The record has not been sent to the network yet',
  'failure.chatDeleted': 'The conversation was deleted',
  'failure.messageDeleted': 'The message was deleted',
  'failure.messageNotSent': 'The message has not been sent to the network yet',
  'failure.sandboxNotFound': 'The record is not in the sandbox',
  'failure.commentDeleted': 'The comment was deleted; it cannot be answered',
  'failure.ownReplyOnly': 'Only your own reply can be changed',
  'failure.messagingWindow':
    "{{network}}: more than 24 hours have passed since the customer's last message — the network accepts an answer once they write again",
  'failure.privateReplyUsed':
    '{{network}}: a private reply to this comment was already sent, or it is older than 7 days — the network accepts only one',
  'failure.accessRevoked':
    '{{network}}: access to the account was revoked or expired — reconnect the account',
  'failure.quotaExceeded': "{{network}}: the day's API quota is used up; work resumes when it resets",
  'failure.youtubeNoChannel': 'This Google account has no YouTube channel',
  'failure.badServiceAccount':
    'This is not a Google service-account key: upload the JSON key file (type service_account, client_email, private_key)',
  'failure.badPrivateKey':
    '{{network}}: the private key cannot be read — paste all of it, with the BEGIN and END lines',
  'failure.wrongStore':
    '{{network}}: this app is in another store ({{store}}) — pick the connection for that store',
  'failure.unreadableCredentials':
    "Stored credentials cannot be decrypted with this server's SECRET_KEY: reconnect the account, or start the server with the key it was connected under",
};

/** A failure as stored: a message key, its params, and the network's own text if it gave one. */
export interface StoredFailure {
  key: string;
  params?: Record<string, string | number>;
  detail?: string;
}

const PREFIX = 'msg:';

export function encodeFailure(failure: StoredFailure): string {
  return PREFIX + JSON.stringify(failure);
}

/** The stored failure, or null when the text is not encoded (the network's own words, or older rows). */
export function decodeFailure(stored: string): StoredFailure | null {
  if (!stored.startsWith(PREFIX)) return null;
  try {
    const value = JSON.parse(stored.slice(PREFIX.length)) as StoredFailure;
    return value && typeof value.key === 'string' ? value : null;
  } catch {
    return null;
  }
}
