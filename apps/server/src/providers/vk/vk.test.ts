import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectKeptFile } from '../../../test/cdn';
import { buildWorkspace } from '../../../test/inbox-actions';
import { hooked } from '../../../test/providers/testbed';
import {
  buildCommunity,
  connectCommunity,
  itemsOf,
  messagesOf,
  VkWorld,
  webhookSecretOf,
} from '../../../test/providers/vk';
import { authors, objects } from '../../db/schema';
import { openCredentials } from '../context';
import { callbackSecret } from './client';

// VK (issue #5 item 7): connecting (typed credentials, community OAuth), the Callback API (confirmation,
// `secret`, redeliveries) and what arrives from it — against the emulator over real HTTP.

const world = hooked(new VkWorld());

const webhookUrl = (id: number) => `${world.t.deps.config.appUrl}/v1/webhooks/vk/${id}`;
const postWebhook = (id: number, body: unknown) =>
  fetch(webhookUrl(id), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('connecting a community', () => {
  it('checks the token with VK, subscribes the Callback API with our secret and passes the handshake', async () => {
    const { object, groupId, group } = await connectCommunity(world);
    expect(object).toMatchObject({ provider: 'vk', externalId: String(groupId), name: group.name });
    expect(object.screenName).toBe(group.screen_name);
    expect(object.updatesMode).toBe('webhook');
    const [server] = group.servers;
    expect(server).toMatchObject({ url: webhookUrl(object.id), status: 'ok' });
    expect(server!.secret_key).toBe(callbackSecret(webhookSecretOf(world, object)));
    expect([...server!.events]).toEqual(
      expect.arrayContaining(['message_new', 'wall_reply_new', 'wall_reply_delete']),
    );
    expect(world.emu.callsOf('groups.setCallbackSettings').at(-1)!.params.api_version).toBe('5.199');
  });

  it("answers a wrong token with VK's own text and stores nothing", async () => {
    const { groupId } = buildCommunity(world);
    const workspace = await buildWorkspace(world.t);
    const res = await world.t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers: workspace.headers,
      payload: { provider: 'vk', credentials: { group_id: String(groupId), access_token: 'vk1.a.wrong' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('User authorization failed: invalid access_token (4).');
    const rows = await world.t.deps.database.db
      .select()
      .from(objects)
      .where(eq(objects.spaceId, workspace.space.id));
    expect(rows).toEqual([]);
  });

  it('connects through the community OAuth popup', async () => {
    const { groupId, group } = buildCommunity(world);
    const workspace = await buildWorkspace(world.t);
    const redirect = `${world.t.deps.config.appUrl}/callback/vk?group_id=${groupId}`;
    const start = await world.t.app.inject({
      url: `/v1/vk/auth/start?redirect_uri=${encodeURIComponent(redirect)}`,
      headers: workspace.headers,
    });
    expect(start.statusCode, start.body).toBe(200);
    const authorize = new URL(start.json().url);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${world.emu.url}/oauth/authorize`);
    expect(authorize.searchParams.get('group_ids')).toBe(String(groupId));
    expect(authorize.searchParams.get('response_type')).toBe('code');

    const popup = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(popup.headers.get('location')!);
    // The popup's answer handed to the app (POST /v1/vk/auth).
    const finish = () =>
      world.t.app.inject({
        method: 'POST',
        url: '/v1/vk/auth',
        headers: workspace.headers,
        payload: {
          code: back.searchParams.get('code'),
          state: back.searchParams.get('state'),
          redirect_uri: redirect,
        },
      });
    const res = await finish();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', source: 'vk', object: { name: group.name } });
    const [row] = await world.t.deps.database.db
      .select()
      .from(objects)
      .where(eq(objects.id, res.json().object.id));
    const token = openCredentials(world.t.deps.sealer, row!).access_token!;
    expect(world.emu.state.tokens.get(token)).toMatchObject({ kind: 'group' });

    const spent = await finish();
    expect(spent.json().error).toContain('Code is invalid or expired.');
    const noGroup = await world.t.app.inject({
      url: `/v1/vk/auth/start?redirect_uri=${encodeURIComponent(`${world.t.deps.config.appUrl}/callback/vk`)}`,
      headers: workspace.headers,
    });
    expect(noGroup.statusCode).toBe(400);
  });
});

describe('the Callback API', () => {
  it('answers the confirmation with the current code, and refuses a wrong secret (403, nothing stored)', async () => {
    const { object, groupId, group, customer } = await connectCommunity(world);
    group.confirmationCode = 'c0nf1rm2';
    const confirm = await postWebhook(object.id, { type: 'confirmation', group_id: groupId });
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toBe('c0nf1rm2');

    const forged = {
      type: 'message_new',
      group_id: groupId,
      event_id: 'forged',
      v: '5.199',
      secret: 'not-the-secret',
      object: {
        message: {
          date: 1,
          peer_id: customer.id,
          from_id: customer.id,
          conversation_message_id: 1,
          text: 'x',
        },
      },
    };
    expect((await postWebhook(object.id, forged)).status).toBe(403);
    expect((await postWebhook(object.id, { ...forged, secret: undefined })).status).toBe(403);
    expect((await postWebhook(object.id, { type: 'confirmation', group_id: groupId + 1 })).status).toBe(403);
    expect((await messagesOf(world, object.id, String(customer.id))).list).toEqual([]);
  });

  it('stores an inbound message once, however often VK delivers it, with the name VK gives', async () => {
    const { object, groupId, customer } = await connectCommunity(world);
    const update = await world.emu.userWrites(groupId, {
      from: customer.id,
      text: 'Есть в наличии?',
      attachments: [
        {
          type: 'photo',
          photo: {
            id: 1,
            owner_id: customer.id,
            sizes: [{ url: 'https://sun.vk.example/x.jpg', width: 604, height: 453 }],
          },
        },
      ],
    });
    const [delivery] = await world.emu.redeliver(groupId, update);
    expect(delivery).toMatchObject({ status: 200, body: 'ok' });
    expect(world.emu.events.deliveries.filter((d) => d.eventId === update.event_id)).toHaveLength(2);

    const { chat, list } = await messagesOf(world, object.id, String(customer.id));
    expect(list.map((m) => [m.externalId, m.text, m.isOwn])).toEqual([['1', 'Есть в наличии?', false]]);
    expect(list[0]!.attachments).toEqual([
      { type: 'image', url: 'https://sun.vk.example/x.jpg', width: 604, height: 453 },
    ]);
    expect(chat!.status).toBe('new');
    const [author] = await world.t.deps.database.db
      .select()
      .from(authors)
      .where(eq(authors.id, chat!.authorId!));
    expect(author).toMatchObject({
      externalId: String(customer.id),
      name: `${customer.first_name} ${customer.last_name}`,
      image: customer.photo_100,
    });
  });

  it("keeps the photo a customer sends from VK's CDN, whose links expire (a public host, really checked)", async () => {
    const { object, groupId, customer, workspace } = await connectCommunity(world);
    const link = `https://sun.vk.example/c${groupId}/photo.jpg`;
    const photo = Buffer.from(`jpeg of ${groupId}`);
    world.cdn.route('sun.vk.example', `/c${groupId}/photo.jpg`, photo, 'image/jpeg');
    await world.emu.userWrites(groupId, {
      from: customer.id,
      text: 'Вот такой',
      attachments: [
        {
          type: 'photo',
          photo: { id: 2, owner_id: customer.id, sizes: [{ url: link, width: 604, height: 453 }] },
        },
      ],
    });
    await world.emu.idle();
    const { list } = await messagesOf(world, object.id, String(customer.id));
    expect(list[0]!.attachments).toEqual([{ type: 'image', url: link, width: 604, height: 453 }]);
    await expectKeptFile(world.t, {
      cdn: world.cdn,
      headers: workspace.headers,
      route: `/v1/messages/${list[0]!.id}/attachments/0`,
      link,
      body: photo,
    });
  });

  it("asks VK for a person's name once: later updates from them use the name it gave", async () => {
    const { object, groupId, customer } = await connectCommunity(world);
    const before = world.emu.callsOf('users.get').length;
    for (const text of ['Первое', 'Второе', 'Третье']) {
      const update = await world.emu.userWrites(groupId, { from: customer.id, text });
      await world.emu.redeliver(groupId, update);
    }
    const asked = world.emu.callsOf('users.get').slice(before);
    expect(
      asked.filter((c) => String(c.params.user_ids).split(',').includes(String(customer.id))),
    ).toHaveLength(1);
    const { list } = await messagesOf(world, object.id, String(customer.id));
    expect(list.map((m) => m.text)).toEqual(['Первое', 'Второе', 'Третье']);
  });

  it('a wall comment, its edit, deletion and restoration arrive; a thread reply links to its parent', async () => {
    const { object, groupId, customer } = await connectCommunity(world);
    world.emu.addPost(groupId, { id: 321, text: 'Новая коллекция' });
    const { commentId, update } = await world.emu.userComments(groupId, {
      from: customer.id,
      postId: 321,
      text: 'Когда доставка?',
    });
    await world.emu.redeliver(groupId, update);
    const external = `-${groupId}_${commentId}`;
    let [item] = await itemsOf(world, object.id);
    expect(item).toMatchObject({
      externalId: external,
      text: 'Когда доставка?',
      kind: 'comment',
      isOwn: false,
    });
    expect(item!.url).toBe(`https://vk.com/wall-${groupId}_321?reply=${commentId}`);
    expect(await itemsOf(world, object.id)).toHaveLength(1);

    const reply = await world.emu.userComments(groupId, {
      from: customer.id,
      postId: 321,
      text: 'Ау?',
      replyTo: commentId,
    });
    const thread = (await itemsOf(world, object.id)).find(
      (i) => i.externalId === `-${groupId}_${reply.commentId}`,
    )!;
    expect(thread).toMatchObject({ parentId: item!.id, parentExternalId: external });

    await world.emu.userEditsComment(groupId, { commentId, text: 'Когда доставка в Казань?' });
    [item] = await itemsOf(world, object.id);
    expect(item).toMatchObject({ text: 'Когда доставка в Казань?' });
    expect(item!.editedAt).not.toBeNull();

    await world.emu.userDeletesComment(groupId, { commentId });
    [item] = await itemsOf(world, object.id);
    expect(item).toMatchObject({ isDeleted: true, status: 'deleted' });

    await world.emu.restoredInVk(groupId, { commentId });
    [item] = await itemsOf(world, object.id);
    expect(item).toMatchObject({ isDeleted: false, status: 'new' });
  });

  it('comments under photos keep their own ids; reactions and message edits change the message', async () => {
    const { object, groupId, customer } = await connectCommunity(world);
    const photo = await world.emu.userComments(groupId, {
      from: customer.id,
      postId: 55,
      text: 'Фото',
      surface: 'photo',
    });
    expect((await itemsOf(world, object.id)).map((i) => i.externalId)).toEqual([
      `photo-${groupId}_${photo.commentId}`,
    ]);

    await world.emu.userWrites(groupId, { from: customer.id, text: 'Привет' });
    await world.emu.userEditsMessage(groupId, { peer: customer.id, cmid: 1, text: 'Привет!' });
    await world.emu.userReacts(groupId, { from: customer.id, peer: customer.id, cmid: 1, reaction: 3 });
    const { list } = await messagesOf(world, object.id, String(customer.id));
    expect(list[0]).toMatchObject({ text: 'Привет!', reactions: [{ value: '3', count: 1, own: false }] });
  });
});
