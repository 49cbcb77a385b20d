import { createHash, randomBytes } from 'node:crypto';
import { DEFAULT_LOCALE, type TelegramCodeWire, type TelegramLinkWire, translate } from '@otklik/shared';
import { and, eq, gt, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notificationTelegram, users } from '../../db/schema';
import type { Logger } from '../../lib/logger';
import { PeriodicTask } from '../../lib/periodic';
import { type TelegramApi, type TelegramTransport, telegramApi } from '../../providers/telegram/client';

// Telegram notifications (issue 18): the instance's own bot (NOTIFY_TELEGRAM_BOT_TOKEN), not a
// customer-facing account. A user links their chat with a one-time code (`/start <code>`), read from
// the bot's updates by long polling; notification deliveries then go out with sendMessage.

export const LINK_CODE_TTL_MS = 15 * 60_000;
const hash = (code: string) => createHash('sha256').update(code).digest('hex');

export function notifyBotApi(transport: TelegramTransport, token: string): TelegramApi {
  return telegramApi(transport, token);
}

export async function telegramLink(db: Db, userId: number, bot: { username: string | null } | null) {
  const [row] = await db.select().from(notificationTelegram).where(eq(notificationTelegram.userId, userId));
  return {
    available: bot !== null,
    linked: Boolean(row?.chatId),
    bot_username: bot?.username ?? null,
  } satisfies TelegramLinkWire;
}

/** A fresh one-time code for this user (an earlier one stops working). */
export async function createLinkCode(
  db: Db,
  userId: number,
  botUsername: string | null,
  now = new Date(),
): Promise<TelegramCodeWire> {
  const code = randomBytes(12).toString('base64url');
  const expires = new Date(now.getTime() + LINK_CODE_TTL_MS);
  await db
    .insert(notificationTelegram)
    .values({ userId, codeHash: hash(code), codeExpiresAt: expires })
    .onConflictDoUpdate({
      target: notificationTelegram.userId,
      set: { codeHash: hash(code), codeExpiresAt: expires },
    });
  return {
    code,
    link: botUsername ? `https://t.me/${botUsername}?start=${code}` : null,
    expires_at: Math.floor(expires.getTime() / 1000),
  };
}

export async function unlinkTelegram(db: Db, userId: number) {
  await db.delete(notificationTelegram).where(eq(notificationTelegram.userId, userId));
}

/** The linked chat of each of these users that has one. */
export async function linkedChats(db: Db, userIds: number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(notificationTelegram)
    .where(and(inArray(notificationTelegram.userId, userIds), isNotNull(notificationTelegram.chatId)));
  return new Map(rows.map((r) => [r.userId, r.chatId!] as const));
}

/**
 * Reads the notification bot's updates (getUpdates, offset confirmed) and links the chat of a
 * `/start <code>` to the code's user; answers in the user's language. Several nodes: the offset is
 * per process, but a code links once (it is cleared in the same statement).
 */
export class TelegramNotifyBot {
  private readonly task: PeriodicTask;
  private offset: number | undefined;
  username: string | null = null;

  constructor(private readonly deps: { db: Db; log: Logger; api: TelegramApi }) {
    this.task = new PeriodicTask(
      'Telegram notification bot',
      () => this.tick().then(() => undefined),
      deps.log,
    );
  }

  async start(intervalMs = 3_000) {
    await this.identify().catch((error: unknown) =>
      this.deps.log.warn({ err: String(error) }, 'Telegram notification bot: getMe failed'),
    );
    this.task.start(intervalMs);
  }

  stop() {
    return this.task.stop();
  }

  async identify() {
    this.username = (await this.deps.api.getMe()).username ?? null;
    return this.username;
  }

  /** One getUpdates round; the number of chats linked. */
  async tick(now = new Date()): Promise<number> {
    const updates = await this.deps.api.getUpdates({
      offset: this.offset,
      timeout: 0,
      allowed_updates: ['message'],
    });
    let linked = 0;
    for (const update of updates) {
      this.offset = update.update_id + 1;
      const message = update.message;
      const match = message?.text ? /^\/start\s+([A-Za-z0-9_-]{8,64})$/.exec(message.text.trim()) : null;
      if (!message || !match || message.chat.type !== 'private') continue;
      const [row] = await this.deps.db
        .update(notificationTelegram)
        .set({ chatId: String(message.chat.id), codeHash: null, codeExpiresAt: null, linkedAt: now })
        .where(
          and(
            eq(notificationTelegram.codeHash, hash(match[1]!)),
            gt(notificationTelegram.codeExpiresAt, now),
          ),
        )
        .returning();
      const [user] = row
        ? await this.deps.db.select({ locale: users.locale }).from(users).where(eq(users.id, row.userId))
        : [];
      const locale = user?.locale === 'en' ? 'en' : user ? 'ru' : DEFAULT_LOCALE;
      await this.deps.api.sendMessage({
        chat_id: message.chat.id,
        text: translate(locale, row ? 'notify.telegramLinked' : 'notify.telegramBadCode'),
      });
      if (row) linked++;
    }
    return linked;
  }
}
