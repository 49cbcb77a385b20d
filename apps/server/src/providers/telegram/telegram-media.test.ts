import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace } from '../../../test/inbox-actions';
import {
  connectBot,
  customer,
  newBot,
  privateChat,
  startTelegramWorld,
  type TelegramWorld,
  until,
} from '../../../test/providers/telegram';
import { chats, messages } from '../../db/schema';

// Customers' files stay on Telegram behind the bot token (`tg-file:<file_id>`): the inbox fetches one
// with getFile + the download link the first time someone opens it, keeps it, and serves it to members
// who may see the chat — pictures inline, anything else as a download (issue #5 item 3).

let w: TelegramWorld;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'otklik-media-'));
  w = await startTelegramWorld({ DATA_DIR: dataDir, MEDIA_MAX_MB: '1' });
});
afterAll(() => w.close());

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function sendFiles(
  files: Array<{ body: Buffer; mime: string; name?: string; as: 'photo' | 'document' }>,
) {
  const bot = newBot(w.tg);
  const { account } = await connectBot(w, bot.token);
  const anna = customer();
  for (const file of files) {
    const stored = w.tg.addFile(file.body, { mime: file.mime, name: file.name });
    const message = w.tg.customerMessage(bot.token, {
      chat: privateChat(anna),
      from: anna,
      ...(file.as === 'photo'
        ? { photo: [{ ...stored, width: 1, height: 1 }] }
        : { document: { ...stored, mime_type: file.mime, file_name: file.name } }),
    });
    expect((await w.tg.deliver(bot.token, { message })).status).toBe(200);
  }
  const [chat] = await w.t.deps.database.db.select().from(chats).where(eq(chats.objectId, account.id));
  const rows = await w.t.deps.database.db.select().from(messages).where(eq(messages.chatId, chat!.id));
  return { bot, account, rows: rows.sort((a, b) => a.id - b.id) };
}

const open = (messageId: number, headers = w.headers, index = 0) =>
  w.t.app.inject({ url: `/v1/messages/${messageId}/attachments/${index}`, headers });

describe('files customers send', () => {
  it('a photo is fetched from Telegram once, kept, and shown inline to members', async () => {
    const { rows } = await sendFiles([{ body: PNG, mime: 'image/png', as: 'photo' }]);
    expect(rows[0]!.attachments[0]!.url).toMatch(/^tg-file:/);
    const fileId = rows[0]!.attachments[0]!.url.slice('tg-file:'.length);
    const first = await open(rows[0]!.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['content-disposition']).toMatch(/^inline/);
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.rawPayload.equals(PNG)).toBe(true);
    // Kept: a second look does not ask Telegram again.
    const second = await open(rows[0]!.id);
    expect(second.rawPayload.equals(PNG)).toBe(true);
    // Asked Telegram once in all (on arrival or on the first look, whichever came first).
    expect(w.tg.callsOf('getFile').filter((c) => c.params.file_id === fileId)).toHaveLength(1);
    expect(readdirSync(join(dataDir, 'media')).length).toBeGreaterThan(0);
  });

  it('is kept as soon as it arrives, before anyone opens it (networks do not keep files forever)', async () => {
    const { rows } = await sendFiles([{ body: PNG, mime: 'image/png', as: 'photo' }]);
    const fileId = rows[0]!.attachments[0]!.url.slice('tg-file:'.length);
    const fetched = () => w.tg.callsOf('getFile').filter((c) => c.params.file_id === fileId).length;
    await until(async () => fetched() === 1);
    const res = await open(rows[0]!.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(fetched()).toBe(1);
  });

  it('anything a browser could run is a download, never a page of ours', async () => {
    const html = Buffer.from('<script>alert(document.cookie)</script>');
    const { rows } = await sendFiles([
      { body: html, mime: 'text/html', name: 'invoice.html', as: 'document' },
    ]);
    const res = await open(rows[0]!.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe("attachment; filename*=UTF-8''invoice.html");
    expect(res.headers['content-security-policy']).toContain('sandbox');
  });

  it('a file over the limit is refused with the limit named; other spaces see nothing', async () => {
    const big = Buffer.alloc(1024 * 1024 + 1, 1);
    const { rows } = await sendFiles([
      { body: big, mime: 'application/pdf', name: 'big.pdf', as: 'document' },
    ]);
    const tooLarge = await open(rows[0]!.id);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error).toBe('Файл больше 1 МБ — откройте его в самой сети');
    const stranger = await buildWorkspace(w.t);
    expect((await open(rows[0]!.id, stranger.headers)).statusCode).toBe(404);
    expect((await open(rows[0]!.id, w.headers, 5)).statusCode).toBe(404);
  });
});
