import { decodeFailure } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FacebookEmulator, FB_ERRORS } from '../../../emulators/facebook/emulator';
import { META_VERIFY, metaTestbed } from '../../../test/providers/meta';
import { authors, chats, items, objects } from '../../db/schema';
import { openCredentials } from '../context';

// Facebook Page end to end against the emulator and a real database (PROVIDERS.md §4): OAuth with the
// Pages chosen in the dialog, the app's one webhook callback (handshake, signature), comments with their
// posts, Messenger, replies and moderation through the outbox, rate limits, the 24-hour window and a
// revoked token.

const VERIFY = META_VERIFY;
let emu: FacebookEmulator;
let pageSeq = 0;
const { bed, popup, post } = metaTestbed('facebook', () => FacebookEmulator.start(), {
  scope: 'pages_messaging',
  started: (started) => {
    emu = started;
  },
});

function newPage(name = 'Кофейня') {
  pageSeq += 1;
  return emu.network.addPage({
    id: `10${pageSeq}${Date.now().toString().slice(-8)}`,
    name: `${name} ${pageSeq}`,
  });
}

/** A connected Page with one post. */
async function connectPage() {
  const page = newPage();
  const post = emu.network.addPost(page.id, 'Новое меню с понедельника');
  emu.network.userPages = [page.id];
  const res = await bed.finish(await popup());
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().object.id as number;
  return { page, post, id };
}

describe('the app webhook', () => {
  it('answers Meta’s handshake with the configured verify token only', async () => {
    const callback = `${bed.base}/v1/webhooks/facebook/app`;
    expect((await emu.subscribe(callback, 'wrong')).status).toBe(403);
    expect((await emu.subscribe(callback, VERIFY)).verified).toBe(true);
  });
});

describe('Facebook Page', () => {
  it('connects every Page chosen in the dialog with its long-lived Page token, subscribed to feed and messages; imports recent comments', async () => {
    const first = newPage('Пекарня');
    const second = newPage('Пекарня на Садовой');
    const old = emu.network.addPost(first.id, 'Круассаны по утрам');
    emu.network.addComment(old, { from: { id: '501', name: 'Ира' }, message: 'Во сколько открываетесь?' });
    emu.network.userPages = [first.id, second.id];
    const res = await bed.finish(await popup());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().object).toMatchObject({ name: first.name, imported: 1 });
    expect(res.json().others).toHaveLength(1);
    const [row] = await bed.db().select().from(objects).where(eq(objects.id, res.json().object.id));
    expect(row?.externalId).toBe(first.id);
    const stored = openCredentials(bed.t.deps.sealer, row!);
    expect(stored.page_token).toBe(first.token);
    expect(JSON.stringify(res.json())).not.toContain(first.token);
    expect(first.subscribedFields).toEqual(expect.arrayContaining(['feed', 'mention', 'messages']));
    expect(second.subscribedFields).toEqual(expect.arrayContaining(['feed', 'messages']));
    const imported = await bed.db().select().from(items).where(eq(items.objectId, row!.id));
    expect(imported[0]).toMatchObject({ text: 'Во сколько открываетесь?' });
    // The code went through the short → long-lived exchange.
    expect(
      emu.calls.filter((c) => c.path === '/oauth/access_token').map((c) => c.query.grant_type),
    ).toContain('fb_exchange_token');
  });

  it('refused consent, a declined permission and no Pages come back as translated errors that say what to do', async () => {
    emu.consent = 'deny';
    const denied = await bed.finish(await popup());
    expect(denied.json().error_type).toBe('access_denied');
    emu.consent = 'allow';
    const page = newPage();
    emu.network.userPages = [page.id];
    emu.network.declined = ['pages_messaging'];
    const missing = await bed.finish(await popup());
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error_type: 'missing_permissions' });
    expect(missing.json().error).toContain('pages_messaging');
    emu.network.declined = [];
    emu.network.userPages = [];
    const none = await bed.finish(await popup());
    expect(none.json()).toMatchObject({ error_type: 'no_pages' });
    expect(none.json().error).toMatch(/страниц/);
  });

  it('ingests comments with their post, replies to replies, edits, removals and mentions of the Page; a repeated delivery stores one item', async () => {
    const { page, post: fbPost, id } = await connectPage();
    const sent = await emu.comment(fbPost, {
      from: { id: '7001', name: 'Анна' },
      message: 'Есть ли веганское?',
    });
    expect(sent.status).toBe(200);
    expect(await emu.push(sent.payload)).toMatchObject({ status: 200 });
    const rows = await bed.db().select().from(items).where(eq(items.objectId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      externalId: sent.comment.id,
      text: 'Есть ли веганское?',
      kind: 'comment',
    });
    const reply = await emu.comment(fbPost, {
      from: { id: '7002', name: 'Олег' },
      message: 'Тоже интересно',
      parentId: sent.comment.id,
    });
    expect(reply.status).toBe(200);
    const child = await bed.item(id, reply.comment.id);
    expect(child?.parentId).toBe(rows[0]!.id);
    sent.comment.message = 'Есть ли веганское меню?';
    await emu.push(emu.feedPayload(sent.comment, 'edited'));
    expect((await bed.item(id, sent.comment.id))?.text).toBe('Есть ли веганское меню?');
    await emu.push(emu.feedPayload(reply.comment, 'remove'));
    expect((await bed.item(id, reply.comment.id))?.isDeleted).toBe(true);
    // A mention of the Page in someone's post is a mention item.
    const mention = await emu.mention(page.id, {
      from: { id: '7003', name: 'Дима' },
      message: 'Лучший кофе у @Кофейня',
    });
    expect(mention.status).toBe(200);
    expect(await bed.item(id, mention.postId)).toMatchObject({
      kind: 'mention',
      text: 'Лучший кофе у @Кофейня',
    });
    // The Page's own comment (written in Facebook) is ours.
    const own = await emu.comment(fbPost, { from: { id: page.id, name: page.name }, message: 'Да!' });
    expect((await bed.item(id, own.comment.id))?.isOwn).toBe(true);
  });

  it('a bad signature is answered 401 and stores nothing', async () => {
    const { post: fbPost, id } = await connectPage();
    const comment = emu.network.addComment(fbPost, {
      from: { id: '7100', name: 'Spam' },
      message: 'подделка',
    });
    const res = await emu.push(emu.feedPayload(comment, 'add'), { signature: `sha256=${'0'.repeat(64)}` });
    expect(res.status).toBe(401);
    const unsigned = await fetch(`${bed.base}/v1/webhooks/facebook/app`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(emu.feedPayload(comment, 'add')),
    });
    expect(unsigned.status).toBe(401);
    expect(await bed.item(id, comment.id)).toBeUndefined();
  });

  it('replies through the outbox; a 429 once is retried and delivered', async () => {
    const { page, post: fbPost, id } = await connectPage();
    const { comment } = await emu.comment(fbPost, {
      from: { id: '7200', name: 'Вера' },
      message: 'Доставка есть?',
    });
    const item = (await bed.item(id, comment.id))!;
    emu.failNext(FB_ERRORS.tooMany, '/comments');
    const sent = await bed.replyThrough429(item.id, 'Да, по городу бесплатно', 61_000);
    expect(sent).toMatchObject({ delivery: 'sent' });
    const onNetwork = emu.network.comments.get(sent.externalId!);
    expect(onNetwork).toMatchObject({ parentId: comment.id, message: 'Да, по городу бесплатно' });
    expect(onNetwork?.from.id).toBe(page.id);
  });

  it('moderation: hide and unhide, like, a private reply once (its chat continues in Messenger), delete', async () => {
    const { page, post: fbPost, id } = await connectPage();
    const { comment } = await emu.comment(fbPost, {
      from: { id: '7300', name: 'Пётр' },
      message: 'Куплю оптом',
    });
    const item = (await bed.item(id, comment.id))!;
    await bed.expectHideAndUnhide(item.id, comment);
    await post(`/v1/items/${item.id}/like`);
    await bed.drain();
    expect(comment.likedByPage).toBe(true);
    const direct = await post(`/v1/items/${item.id}/direct`, { text: 'Напишите, сколько нужно' });
    expect(direct.statusCode, direct.body).toBe(200);
    await bed.drain();
    expect(emu.network.sent.at(-1)).toMatchObject({ recipient: { comment_id: comment.id } });
    // Facebook answers with the commenter's PSID: the chat takes it, so their Messenger answer joins it.
    const chat = await bed.chatOfMessage(direct.json().message.id);
    expect(chat.externalId).toBe('psid-of-7300');
    await emu.message(page.id, 'psid-of-7300', 'Нужно 20 штук');
    const thread = await bed.messagesOf(chat.id);
    expect(thread.map((m) => m.text)).toEqual(
      expect.arrayContaining(['Напишите, сколько нужно', 'Нужно 20 штук']),
    );
    expect(
      await bed
        .db()
        .select()
        .from(chats)
        .where(and(eq(chats.objectId, id), eq(chats.externalId, 'psid-of-7300'))),
    ).toHaveLength(1);
    // Facebook takes one private reply per comment: the second fails with our reason, nothing is sent.
    const sentBefore = emu.network.sent.length;
    const again = await post(`/v1/items/${item.id}/direct`, { text: 'Ещё раз' });
    expect(again.statusCode, again.body).toBe(200);
    await bed.drain();
    const second = await bed.messageRow(again.json().message.id);
    expect(second.delivery).toBe('failed');
    expect(decodeFailure(second.deliveryError ?? '')?.key).toBe('failure.privateReplyUsed');
    expect(emu.network.sent.length).toBe(sentBefore);
    await post(`/v1/items/${item.id}/delete`);
    await bed.drain();
    expect(comment.deleted).toBe(true);
    expect((await bed.item(id, comment.id))?.isDeleted).toBe(true);
  });

  it('Messenger: a message opens a chat, the answer goes within 24 hours, outside it fails with a clear reason', async () => {
    const { page, id } = await connectPage();
    const psid = `psid-${page.id}`;
    const { mid } = await emu.message(page.id, psid, 'Здравствуйте, вы открыты?', 'Ольга Петрова');
    const chat = await bed.chatOf(id, psid);
    expect(chat).toBeDefined();
    // Messenger names people by PSID only: the name comes from the User Profile API with the Page token.
    const [customer] = await bed.db().select().from(authors).where(eq(authors.id, chat!.authorId!));
    expect(customer?.name).toBe('Ольга Петрова');
    expect(emu.callsTo('GET', `/${psid}`)).toHaveLength(1);
    // Someone the profile API does not answer for: the message is stored all the same, without a name.
    const stranger = `psid-x-${page.id}`;
    const { mid: strangerMid } = await emu.message(page.id, stranger, 'Алло?');
    const strangerChat = await bed.chatOf(id, stranger);
    const strangerMessages = await bed.messagesOf(strangerChat!.id);
    expect(strangerMessages.map((m) => m.externalId)).toEqual([strangerMid]);
    // The miss is remembered: the stranger's next message does not ask again.
    await emu.message(page.id, stranger, 'Есть кто?');
    expect(emu.callsTo('GET', `/${stranger}`)).toHaveLength(1);
    const list = await bed.messagesOf(chat!.id);
    expect(list.map((m) => m.externalId)).toContain(mid);
    const answer = await post(`/v1/chats/${chat!.id}/messages`, { text: 'Да, до 22:00' });
    expect(answer.statusCode, answer.body).toBe(200);
    await bed.drain();
    expect(emu.network.sent.at(-1)).toMatchObject({ recipient: { id: psid }, text: 'Да, до 22:00' });
    await bed.expectWindowClosed(chat!.id);
  });

  it('a revoked Page token fails the reply and becomes the account’s error', async () => {
    const { page, post: fbPost, id } = await connectPage();
    const { comment } = await emu.comment(fbPost, { from: { id: '7400', name: 'Ян' }, message: 'Цена?' });
    const item = (await bed.item(id, comment.id))!;
    await bed.expectRevokedOnReply(id, page.id, item.id);
  });
});
