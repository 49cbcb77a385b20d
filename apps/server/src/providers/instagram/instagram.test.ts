import { decodeFailure } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FB_ERRORS } from '../../../emulators/facebook/emulator';
import { InstagramEmulator } from '../../../emulators/instagram/emulator';
import { metaTestbed } from '../../../test/providers/meta';
import { items, messages, objects } from '../../db/schema';
import { openCredentials } from '../context';
import { metaSignature } from '../facebook/meta';

// Instagram professional accounts end to end against the emulator and a real database (PROVIDERS.md §4c):
// Facebook's dialog finds the Page's linked account, `object: "instagram"` deliveries to the Meta app
// callback (handshake, signature), comments, mentions, Direct with the 24-hour window, story replies and
// mentions, replies and moderation through the outbox, a 429 and a revoked token.

let emu: InstagramEmulator;
let seq = 0;
const { bed, popup, post } = metaTestbed('instagram', () => InstagramEmulator.start(), {
  scope: 'instagram_manage_comments',
  started: (started) => {
    emu = started;
  },
});

/** A connected professional account with one media. */
async function connect() {
  seq += 1;
  const { page, account } = emu.addAccount(`Кофейня ${seq}`, `coffee_${seq}`);
  const media = emu.addMedia(account, 'Новое меню');
  emu.network.userPages = [page.id];
  const res = await bed.finish(await popup());
  expect(res.statusCode, res.body).toBe(200);
  return { page, account, media, id: res.json().object.id as number };
}

describe('Instagram', () => {
  it('connects the professional account linked to each chosen Page, with the Page token sealed; Pages without one are skipped', async () => {
    const { page, account } = emu.addAccount('Пекарня', 'bakery_spb');
    const second = emu.addAccount('Пекарня на Садовой', 'bakery_sadovaya');
    const media = emu.addMedia(account, 'Круассаны по утрам');
    const question = emu.addComment(media, {
      from: { id: 'IGSID_0', username: 'ira' },
      text: 'Во сколько открываетесь?',
    });
    emu.addComment(media, {
      from: { id: account.id, username: account.username },
      text: 'В 8:00',
      parentId: question.id,
    });
    const bare = emu.network.addPage({ id: `10${emu.network.next()}`, name: 'Без Instagram' });
    emu.network.userPages = [bare.id, page.id, second.page.id];
    const res = await bed.finish(await popup());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().object).toMatchObject({ name: 'bakery_spb', imported: 2 });
    expect(res.json().others).toHaveLength(1);
    const [row] = await bed.db().select().from(objects).where(eq(objects.id, res.json().object.id));
    expect(row).toMatchObject({ provider: 'instagram', externalId: account.id });
    expect(openCredentials(bed.t.deps.sealer, row!)).toMatchObject({
      ig_user_id: account.id,
      page_id: page.id,
      page_token: page.token,
    });
    expect(JSON.stringify(res.json())).not.toContain(page.token);
    expect(page.subscribedFields).toEqual(expect.arrayContaining(['messages']));
    const top = (
      await bed
        .db()
        .select()
        .from(items)
        .where(and(eq(items.objectId, row!.id), eq(items.externalId, question.id)))
    )[0];
    expect(top).toMatchObject({ text: 'Во сколько открываетесь?', kind: 'comment' });
    const answer = await bed.db().select().from(items).where(eq(items.parentId, top!.id));
    expect(answer[0]).toMatchObject({ text: 'В 8:00', isOwn: true });
  });

  it('a declined permission and no linked account come back as translated errors that say what to do', async () => {
    const { page } = emu.addAccount('Цветы', 'flowers');
    emu.network.userPages = [page.id];
    emu.network.declined = ['instagram_manage_messages'];
    const missing = await bed.finish(await popup());
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error_type: 'missing_permissions' });
    expect(missing.json().error).toContain('instagram_manage_messages');
    emu.network.declined = [];
    const bare = emu.network.addPage({ id: `10${emu.network.next()}`, name: 'Без Instagram' });
    emu.network.userPages = [bare.id];
    const none = await bed.finish(await popup());
    expect(none.json()).toMatchObject({ error_type: 'no_instagram_account' });
    expect(none.json().error).toMatch(/Instagram/);
  });

  it('ingests comments and replies from signed deliveries; a repeated delivery stores one item; a bad signature is 401 and stores nothing', async () => {
    const { account, media, id } = await connect();
    const sent = await emu.igComment(media, { from: { id: 'IGSID_1', username: 'anna' }, text: 'Цена?' });
    expect(sent.status).toBe(200);
    expect((await emu.push(sent.payload)).status).toBe(200);
    const rows = await bed.db().select().from(items).where(eq(items.objectId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ externalId: sent.comment.id, text: 'Цена?', kind: 'comment' });
    const reply = await emu.igComment(media, {
      from: { id: 'IGSID_2', username: 'oleg' },
      text: 'Тоже интересно',
      parentId: sent.comment.id,
    });
    expect((await bed.item(id, reply.comment.id))?.parentId).toBe(rows[0]!.id);
    const own = await emu.igComment(media, {
      from: { id: account.id, username: account.username },
      text: '300 ₽',
    });
    expect((await bed.item(id, own.comment.id))?.isOwn).toBe(true);
    const forged = emu.addComment(media, { from: { id: 'IGSID_3', username: 'spam' }, text: 'подделка' });
    const bad = await emu.push(emu.commentPayload(forged), { signature: `sha256=${'0'.repeat(64)}` });
    expect(bad.status).toBe(401);
    expect(await bed.item(id, forged.id)).toBeUndefined();
  });

  it('the Instagram product’s own callback takes the same signed deliveries', async () => {
    const { media, id } = await connect();
    const callback = `${bed.base}/v1/webhooks/instagram/app`;
    expect((await emu.subscribe(callback, 'wrong')).status).toBe(403);
    const comment = emu.addComment(media, { from: { id: 'IGSID_4', username: 'vera' }, text: 'Доставка?' });
    const raw = JSON.stringify(emu.commentPayload(comment));
    const res = await fetch(callback, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': metaSignature(raw, emu.appSecret),
      },
      body: raw,
    });
    expect(res.status).toBe(200);
    expect(await bed.item(id, comment.id)).toMatchObject({ text: 'Доставка?' });
  });

  it('mentions in comments and captions are looked up and stored as mentions; a mention is answered through /mentions', async () => {
    const { account, id } = await connect();
    const inComment = await emu.igMention(account, {
      from: { id: '1785', username: 'dima' },
      text: 'Лучший кофе у @coffee',
    });
    expect(inComment.status).toBe(200);
    const item = await bed.item(id, inComment.comment!.id);
    expect(item).toMatchObject({ kind: 'mention', text: 'Лучший кофе у @coffee' });
    const inCaption = await emu.igMention(account, {
      from: { id: '1786', username: 'katya' },
      text: 'Завтрак в @coffee',
      inCaption: true,
    });
    expect(await bed.item(id, inCaption.media.id)).toMatchObject({
      kind: 'mention',
      text: 'Завтрак в @coffee',
    });
    const res = await post(`/v1/items/${item!.id}/reply`, { text: 'Спасибо!' });
    expect(res.statusCode, res.body).toBe(200);
    await bed.drain();
    const [sent] = await bed.db().select().from(items).where(eq(items.id, res.json().reply.id));
    expect(sent).toMatchObject({ delivery: 'sent' });
    expect(emu.comments.get(sent!.externalId!)).toMatchObject({
      parentId: inComment.comment!.id,
      text: 'Спасибо!',
    });
  });

  it('replies through the outbox; a 429 once is retried and delivered', async () => {
    const { account, media, id } = await connect();
    const { comment } = await emu.igComment(media, {
      from: { id: 'IGSID_5', username: 'ira' },
      text: 'Есть веганское?',
    });
    const item = (await bed.item(id, comment.id))!;
    emu.failNext(FB_ERRORS.tooMany, '/replies');
    const sent = await bed.replyThrough429(item.id, 'Да, овсяное молоко', 61_000);
    expect(sent).toMatchObject({ delivery: 'sent' });
    expect(emu.comments.get(sent.externalId!)).toMatchObject({
      parentId: comment.id,
      text: 'Да, овсяное молоко',
      from: { id: account.id },
    });
  });

  it('moderation: hide and unhide, a private reply once, delete', async () => {
    const { media, id } = await connect();
    const { comment } = await emu.igComment(media, {
      from: { id: 'IGSID_6', username: 'petr' },
      text: 'Куплю оптом',
    });
    const item = (await bed.item(id, comment.id))!;
    await bed.expectHideAndUnhide(item.id, comment);
    const direct = await post(`/v1/items/${item.id}/direct`, { text: 'Напишите, сколько нужно' });
    expect(direct.statusCode, direct.body).toBe(200);
    await bed.drain();
    expect(emu.sentDirect.at(-1)).toMatchObject({ recipient: { comment_id: comment.id } });
    // The Direct thread is the commenter's: the chat is keyed by their Instagram-scoped id.
    const chat = await bed.chatOfMessage(direct.json().message.id);
    expect(chat.externalId).toBe('IGSID_6');
    const again = await post(`/v1/items/${item.id}/direct`, { text: 'Ещё раз' });
    await bed.drain();
    const second = await bed.messageRow(again.json().message.id);
    expect(decodeFailure(second.deliveryError ?? '')?.key).toBe('failure.privateReplyUsed');
    await post(`/v1/items/${item.id}/delete`);
    await bed.drain();
    expect(comment.deleted).toBe(true);
    expect((await bed.item(id, comment.id))?.isDeleted).toBe(true);
  });

  it('Direct: a message opens a chat, the answer goes within 24 hours, outside it fails with a clear reason; story replies and mentions arrive with their link', async () => {
    const { account, id } = await connect();
    const igsid = `IGSID_${account.id}`;
    const first = await emu.igMessage(account, igsid, 'Здравствуйте, вы открыты?');
    const { mid } = first;
    const chat = await bed.chatOf(id, igsid);
    expect(chat).toBeDefined();
    const answer = await post(`/v1/chats/${chat!.id}/messages`, { text: 'Да, до 22:00' });
    expect(answer.statusCode, answer.body).toBe(200);
    await bed.drain();
    expect(emu.sentDirect.at(-1)).toMatchObject({ recipient: { id: igsid }, text: 'Да, до 22:00' });
    await emu.igMessage(account, igsid, '', { storyMention: 'https://lookaside.example/story-1' });
    await emu.igMessage(account, igsid, 'Красиво!', { storyReply: 'https://lookaside.example/story-2' });
    const list = await bed.messagesOf(chat!.id);
    expect(list.map((m) => m.externalId)).toContain(mid);
    const urls = list.flatMap((m) => (m.attachments ?? []).map((a) => a.url));
    expect(urls).toEqual(
      expect.arrayContaining(['https://lookaside.example/story-1', 'https://lookaside.example/story-2']),
    );
    // The customer unsends a message: it is marked deleted.
    const unsent = structuredClone(first.payload);
    const unsentMessage = unsent.entry[0]!.messaging[0]!.message as Record<string, unknown>;
    unsentMessage.is_deleted = true;
    expect((await emu.push(unsent)).status).toBe(200);
    const [gone] = await bed.db().select().from(messages).where(eq(messages.externalId, mid));
    expect(gone?.isDeleted).toBe(true);
    await bed.expectWindowClosed(chat!.id);
  });

  it('a revoked Page token fails the reply and becomes the account’s error', async () => {
    const { page, media, id } = await connect();
    const { comment } = await emu.igComment(media, {
      from: { id: 'IGSID_7', username: 'yan' },
      text: 'Цена?',
    });
    const item = (await bed.item(id, comment.id))!;
    await bed.expectRevokedOnReply(id, page.id, item.id);
  });
});
