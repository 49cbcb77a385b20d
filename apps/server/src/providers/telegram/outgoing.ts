import type { Attachment } from '../../db/schema';
import { ConnectorError, type OutgoingButton, type OutgoingContent, type SentRef } from '../types';
import type { TelegramApi } from './client';
import { messageKey, parseMessageKey } from './mapping';
import type { TgInlineKeyboardMarkup, TgMessage } from './types';

// Sending text and files with the Bot API (PROVIDERS §1 sendMessage / sendPhoto / sendDocument /
// sendMediaGroup). Files go by reference: a customer's file by its `file_id` (our `tg-file:` ref), one of
// ours by its URL, which Telegram downloads itself (so APP_URL must be reachable from Telegram).

type Where = { chat_id: number | string; reply_parameters?: { message_id: number } };

/** Rows of buttons as an inline keyboard; a press comes back as a callback_query with the data. */
export function inlineKeyboard(rows: OutgoingButton[][]): TgInlineKeyboardMarkup {
  return {
    inline_keyboard: rows.map((row) =>
      row.map((b) => ({ text: b.label, callback_data: callbackData(b.data) })),
    ),
  };
}

const mediaOf = (a: Attachment) => (a.url.startsWith('tg-file:') ? a.url.slice('tg-file:'.length) : a.url);

/** The Bot API method and field for one attachment. */
function single(a: Attachment): { method: 'sendPhoto' | 'sendDocument'; field: string } {
  if (a.type === 'image') return { method: 'sendPhoto', field: 'photo' };
  return { method: 'sendDocument', field: 'document' };
}

const sentRef = (m: TgMessage): SentRef => ({ externalId: messageKey(m.chat.id, m.message_id) });

/** Telegram's limit for a button's callback_data is 64 bytes: cut on a whole character. */
export function callbackData(label: string): string {
  let out = '';
  for (const ch of label) {
    if (Buffer.byteLength(out + ch) > 64) break;
    out += ch;
  }
  return out;
}

/** Sends `content` to `where`; returns the id of the (first) message Telegram created. */
export async function sendContent(
  api: TelegramApi,
  where: Where,
  content: OutgoingContent,
): Promise<SentRef> {
  const files = content.attachments;
  if (files.length === 0) {
    const markup = content.buttons?.length ? { reply_markup: inlineKeyboard(content.buttons) } : {};
    return sentRef(await api.sendMessage({ ...where, text: content.text, ...markup }));
  }
  if (files.length === 1) {
    const file = files[0]!;
    const { method, field } = single(file);
    const params = { ...where, [field]: mediaOf(file), ...(content.text ? { caption: content.text } : {}) };
    return sentRef(await (method === 'sendPhoto' ? api.sendPhoto(params) : api.sendDocument(params)));
  }
  // An album: photos group with photos; anything else goes as a group of documents (PROVIDERS §1
  // "Documents and audio can only be grouped with their own type"). The caption rides on the first.
  const allPhotos = files.every((f) => f.type === 'image');
  const media = files.slice(0, 10).map((f, i) => ({
    type: allPhotos ? 'photo' : 'document',
    media: mediaOf(f),
    ...(i === 0 && content.text ? { caption: content.text } : {}),
  }));
  const sent = await api.sendMediaGroup({ ...where, media });
  if (!sent[0])
    throw new ConnectorError('temporary', 'Telegram returned an empty album', {
      reason: { key: 'failure.badAnswer', params: { network: 'Telegram' } },
    });
  return sentRef(sent[0]);
}

/** Our id `${chat}:${message}` → the Bot API's (chat_id, message_id), or a permanent error. */
export function locate(externalId: string): { chat_id: string; message_id: number } {
  const key = parseMessageKey(externalId);
  if (!key)
    throw new ConnectorError('permanent', `Not a Telegram message id: ${externalId}`, {
      reason: { key: 'failure.badReference', params: { network: 'Telegram' }, detail: externalId },
    });
  return { chat_id: key.chatId, message_id: key.messageId };
}
