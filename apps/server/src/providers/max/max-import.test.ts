import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { connectBot, dialogOf, groupChat, MaxWorld, newBot, person } from '../../../test/providers/max';
import { hooked } from '../../../test/providers/testbed';
import { chats, items, messages } from '../../db/schema';

// Issue 13 item 15: connecting a MAX bot imports its recent dialogs and group chats (docs/product/limits.md), like
// Telegram and VK, through GET /chats and GET /messages?chat_id=&count= (PROVIDERS §7e "History").

const w = hooked(new MaxWorld());

describe('MAX import on connect', () => {
  it("stores the bot's recent dialog messages and group comments, and not another bot's", async () => {
    const bot = newBot(w.max);
    const other = newBot(w.max);
    const peter = person();
    const dialog = dialogOf(peter);
    const group = groupChat();
    w.max.customerMessage({ sender: peter, recipient: dialog, text: 'Есть в наличии?' });
    w.max.customerMessage({ sender: person(), recipient: group, text: 'Сколько стоит доставка?' });
    w.max.join(bot.token, dialog.chat_id!);
    w.max.join(bot.token, group.chat_id!);
    const stranger = person();
    w.max.customerMessage({ sender: stranger, recipient: dialogOf(stranger), text: 'чужое' });
    w.max.join(other.token, dialogOf(stranger).chat_id!);

    const res = await w.t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers: w.headers,
      payload: { provider: 'max', credentials: { access_token: bot.token } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const account = res.json() as { id: number; imported: number; error: string | null };
    expect(account.imported).toBe(2);
    expect(w.max.calls.some((c) => c.method === 'GET' && c.path === '/chats')).toBe(true);

    const stored = await w.db().select().from(items).where(eq(items.objectId, account.id));
    expect(stored.map((i) => i.text)).toEqual(['Сколько стоит доставка?']);
    const [chat] = await w.db().select().from(chats).where(eq(chats.objectId, account.id));
    expect(chat?.externalId).toBe(String(dialog.chat_id));
    const texts = (await w.db().select().from(messages).where(eq(messages.chatId, chat!.id))).map(
      (m) => m.text,
    );
    expect(texts).toEqual(['Есть в наличии?']);
  });

  it('a bot with no chats connects with nothing imported', async () => {
    const bot = newBot(w.max);
    const { account } = await connectBot(w, bot.token);
    const stored = await w.db().select().from(items).where(eq(items.objectId, account.id));
    expect(stored).toHaveLength(0);
  });
});
