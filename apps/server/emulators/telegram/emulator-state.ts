import { TELEGRAM_REACTION_EMOJI } from '@otklik/shared';
import type { TgChat, TgMessage, TgUpdate, TgUser } from '../../src/providers/telegram/types';

// TEST-ONLY. The network-side state of the Telegram emulator (emulator.ts): bots, their chats and
// messages, webhook settings, pending updates, bans, and the Bot API methods the connector uses, with
// Telegram's envelopes, texts and time windows (PROVIDERS §1, §8).

export type Params = Record<string, unknown>;
export interface Answer {
  status: number;
  body: unknown;
}

const ok = (result: unknown): Answer => ({ status: 200, body: { ok: true, result } });
export const fail = (code: number, description: string, parameters?: Params): Answer => ({
  status: code,
  body: { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) },
});

/** Update fields Telegram leaves out unless named in allowed_updates (PROVIDERS §1 getUpdates). */
const OPT_IN = ['chat_member', 'message_reaction', 'message_reaction_count'];
const DELETE_WINDOW_MS = 48 * 3600_000; // PROVIDERS §8.5: Telegram delete 48 h

export class EmulatedBot {
  webhook: { url: string; secret?: string } | null = null;
  allowedUpdates: string[] = [];
  readonly pending: TgUpdate[] = [];
  private nextUpdateId = 500_000_001;
  readonly chats = new Map<number, TgChat>();
  readonly messages = new Map<string, { message: TgMessage; fromBot: boolean }>();
  private readonly nextMessageId = new Map<number, number>();
  /** Users who pressed Start (a bot may write only to them) and who blocked the bot. */
  readonly started = new Set<number>();
  readonly blockedBy = new Set<number>();
  readonly reactions = new Map<string, string[]>();
  readonly bans = new Map<string, number | null>();
  waiters: Array<() => void> = [];

  constructor(
    readonly token: string,
    readonly user: TgUser,
    private readonly now: () => number,
  ) {}

  nextId(chatId: number) {
    const id = (this.nextMessageId.get(chatId) ?? 100) + 1;
    this.nextMessageId.set(chatId, id);
    return id;
  }

  /** A message written on the network (by a customer, or by us); kept so edits and deletes work. */
  store(message: TgMessage, fromBot: boolean) {
    this.chats.set(message.chat.id, message.chat);
    const current = this.nextMessageId.get(message.chat.id) ?? 100;
    if (message.message_id > current) this.nextMessageId.set(message.chat.id, message.message_id);
    this.messages.set(`${message.chat.id}:${message.message_id}`, { message, fromBot });
    if (message.chat.type === 'private' && !fromBot) this.started.add(message.chat.id);
  }

  /** Numbers an update; true when the bot's allowed_updates let it through. */
  prepare(update: Omit<TgUpdate, 'update_id'> & { update_id?: number }): TgUpdate | null {
    const full = { ...update, update_id: update.update_id ?? this.nextUpdateId++ } as TgUpdate;
    const kind = Object.keys(full).find((k) => k !== 'update_id') ?? '';
    const allowed =
      this.allowedUpdates.length > 0 ? this.allowedUpdates.includes(kind) : !OPT_IN.includes(kind);
    return allowed ? full : null;
  }

  enqueue(update: TgUpdate) {
    this.pending.push(update);
    for (const wake of this.waiters.splice(0)) wake();
  }

  private find(chatId: unknown, messageId: unknown) {
    return this.messages.get(`${Number(chatId)}:${Number(messageId)}`);
  }

  private chatFor(chatId: unknown): TgChat | Answer {
    const id = Number(chatId);
    const chat = this.chats.get(id);
    if (!chat || !Number.isFinite(id)) {
      // Writing first to a user who never started the bot (PROVIDERS §1; exact text UNCONFIRMED).
      if (id > 0) return fail(403, "Forbidden: bot can't initiate conversation with a user");
      return fail(400, 'Bad Request: chat not found');
    }
    if (chat.type === 'private' && this.blockedBy.has(id))
      return fail(403, 'Forbidden: bot was blocked by the user');
    return chat;
  }

  private send(params: Params, fields: Partial<TgMessage>): Answer {
    const chat = this.chatFor(params.chat_id);
    if ('status' in chat) return chat;
    const replyTo = (params.reply_parameters as { message_id?: number } | undefined)?.message_id;
    const replied = replyTo === undefined ? undefined : this.find(chat.id, replyTo);
    if (replyTo !== undefined && !replied) return fail(400, 'Bad Request: message to be replied not found');
    const message: TgMessage = {
      message_id: this.nextId(chat.id),
      from: this.user,
      chat,
      date: Math.floor(this.now() / 1000),
      ...(replied ? { reply_to_message: replied.message } : {}),
      ...fields,
    };
    this.store(message, true);
    return ok(message);
  }

  sendMessage(p: Params): Answer {
    const text = typeof p.text === 'string' ? p.text : '';
    if (!text.trim()) return fail(400, 'Bad Request: message text is empty');
    if ([...text].length > 4096) return fail(400, 'Bad Request: message is too long');
    const markup = p.reply_markup as TgMessage['reply_markup'] | undefined;
    return this.send(p, { text, ...(markup ? { reply_markup: markup } : {}) });
  }

  sendFile(p: Params, field: 'photo' | 'document'): Answer {
    const id = String(p[field] ?? '');
    if (!id) return fail(400, `Bad Request: there is no ${field} in the request`);
    const caption = typeof p.caption === 'string' ? p.caption : undefined;
    if (caption && [...caption].length > 1024) return fail(400, 'Bad Request: message caption is too long');
    const file = { file_id: id, file_unique_id: id.slice(0, 16) };
    return this.send(p, {
      ...(field === 'photo' ? { photo: [{ ...file, width: 800, height: 600 }] } : { document: file }),
      ...(caption ? { caption } : {}),
    });
  }

  sendMediaGroup(p: Params): Answer {
    const media = Array.isArray(p.media)
      ? (p.media as Array<{ type: string; media: string; caption?: string }>)
      : [];
    if (media.length < 2 || media.length > 10) return fail(400, 'Bad Request: wrong number of media (2-10)');
    const sent: unknown[] = [];
    for (const m of media) {
      const one = this.sendFile(
        { ...p, [m.type === 'photo' ? 'photo' : 'document']: m.media, caption: m.caption },
        m.type === 'photo' ? 'photo' : 'document',
      );
      if (one.status !== 200) return one;
      sent.push((one.body as { result: unknown }).result);
    }
    return ok(sent);
  }

  editMessageText(p: Params, field: 'text' | 'caption'): Answer {
    const found = this.find(p.chat_id, p.message_id);
    if (!found) return fail(400, 'Bad Request: message to edit not found');
    if (!found.fromBot) return fail(400, "Bad Request: message can't be edited");
    const text = String(p[field] ?? '');
    if (field === 'text' && !text.trim()) return fail(400, 'Bad Request: message text is empty');
    if ((found.message[field] ?? '') === text)
      return fail(
        400,
        'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
      );
    found.message = { ...found.message, [field]: text, edit_date: Math.floor(this.now() / 1000) };
    return ok(found.message);
  }

  deleteMessage(p: Params): Answer {
    const key = `${Number(p.chat_id)}:${Number(p.message_id)}`;
    const found = this.messages.get(key);
    if (!found) return fail(400, 'Bad Request: message to delete not found');
    // PROVIDERS §1 deleteMessage: only messages sent less than 48 h ago.
    if (this.now() - found.message.date * 1000 >= DELETE_WINDOW_MS)
      return fail(400, "Bad Request: message can't be deleted");
    this.messages.delete(key);
    return ok(true);
  }

  setMessageReaction(p: Params): Answer {
    const found = this.find(p.chat_id, p.message_id);
    if (!found) return fail(400, 'Bad Request: message to react not found'); // exact text UNCONFIRMED
    const list = Array.isArray(p.reaction) ? (p.reaction as Array<{ type: string; emoji?: string }>) : [];
    if (list.length > 1) return fail(400, 'Bad Request: REACTIONS_TOO_MANY');
    const emoji = list.map((r) => r.emoji ?? '');
    if (emoji.some((e) => !(TELEGRAM_REACTION_EMOJI as readonly string[]).includes(e)))
      return fail(400, 'Bad Request: REACTION_INVALID');
    this.reactions.set(`${found.message.chat.id}:${found.message.message_id}`, emoji);
    return ok(true);
  }

  banChatMember(p: Params, ban: boolean): Answer {
    const chat = this.chats.get(Number(p.chat_id));
    if (!chat) return fail(400, 'Bad Request: chat not found');
    if (chat.type === 'private') return fail(400, "Bad Request: can't remove chat owner"); // UNCONFIRMED
    const key = `${chat.id}:${Number(p.user_id)}`;
    if (ban) this.bans.set(key, typeof p.until_date === 'number' ? p.until_date : null);
    else this.bans.delete(key);
    return ok(true);
  }
}
