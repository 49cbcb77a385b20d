import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/harness';
import { ViberTestbed } from '../../../test/providers/viber';
import { connectCommunity, startVkWorld, type VkWorld, workerFor } from '../../../test/providers/vk';
import { WhatsAppTestbed } from '../../../test/providers/whatsapp';
import { rulesWorkerOf } from '../../../test/rules-worker';
import { interactiveBody } from '../../providers/whatsapp/interactive';
import { mergeSpaceSettings } from '../users/testing';

// Chat-bot menus as each messenger's own buttons (issue 17), against the emulators: VK an inline keyboard
// of text buttons whose payload carries the option back, WhatsApp interactive reply buttons (a list past
// three options) answered by button_reply / list_reply, Viber a keyboard of `reply` buttons whose
// ActionBody comes back as the text. In each the tap answers the menu and the bot goes to the tapped
// option's step.

const FLOW = [
  {
    id: 'menu',
    type: 'menu',
    text: 'Чем помочь?',
    options: [
      { label: 'Статус заказа', next: 'order' },
      { label: 'Другое', next: 'other' },
    ],
  },
  { id: 'other', type: 'handoff', text: 'Передаю оператору' },
  { id: 'order', type: 'message', text: 'Назовите номер заказа' },
];

async function botOn(t: TestApp, headers: Record<string, string>, spaceId: number, objectId: number) {
  await mergeSpaceSettings(t, spaceId, { bots: true });
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/bots',
    headers,
    payload: { space_id: spaceId, object_id: objectId, name: 'Меню', steps: FLOW },
  });
  expect(res.statusCode, res.body).toBe(200);
  return rulesWorkerOf(t, [spaceId]);
}

describe('bot menus as VK keyboards', { timeout: 120_000 }, () => {
  let world: VkWorld;
  beforeAll(async () => {
    world = await startVkWorld();
  }, 240_000);
  afterAll(() => world?.close());

  it('sends an inline keyboard with payloads; a tap answers the tapped option', async () => {
    const c = await connectCommunity(world);
    const spaceId = c.workspace.space.id;
    const rules = await botOn(world.t, c.workspace.headers, spaceId, c.object.id);
    const { worker } = workerFor(world, spaceId);
    const settle = async () => {
      await world.emu.idle();
      await rules.drain();
      await worker.drain();
      await world.emu.idle();
    };
    await world.emu.userWrites(c.groupId, { from: c.customer.id, text: 'Здравствуйте' });
    await settle();
    const sends = world.emu.callsOf('messages.send');
    const menu = sends.at(-1)!;
    expect(menu.params.message).toBe('Чем помочь?');
    expect(JSON.parse(String(menu.params.keyboard))).toEqual({
      inline: true,
      buttons: [
        [{ action: { type: 'text', label: 'Статус заказа', payload: '{"button":"Статус заказа"}' } }],
        [{ action: { type: 'text', label: 'Другое', payload: '{"button":"Другое"}' } }],
      ],
    });

    await world.emu.userTaps(c.groupId, { from: c.customer.id, label: 'Другое' });
    await settle();
    const next = world.emu.callsOf('messages.send').at(-1)!;
    expect(next.params.message).toBe('Передаю оператору');
    expect(next.params.keyboard).toBeUndefined();
  });
});

describe('bot menus as WhatsApp interactive messages', { timeout: 120_000 }, () => {
  const w = new WhatsAppTestbed();
  beforeAll(() => w.start(), 240_000);
  afterAll(() => w.close());

  it('sends reply buttons; a button_reply answers the tapped option', async () => {
    const number = await w.connectNumber();
    const rules = await botOn(w.t, w.headers, w.spaceId, number.id);
    const settle = async () => {
      await rules.drain();
      await w.drain();
    };
    await w.emu.pushMessage({ from: number.customer, text: 'Здравствуйте' });
    await settle();
    const menu = w.emu.sent().at(-1)!.body!;
    expect(menu).toMatchObject({
      to: number.customer,
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Чем помочь?' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'Статус заказа', title: 'Статус заказа' } },
            { type: 'reply', reply: { id: 'Другое', title: 'Другое' } },
          ],
        },
      },
    });
    await w.emu.customerTaps(number.customer, 'Статус заказа');
    await settle();
    expect(w.emu.sent().at(-1)!.body).toMatchObject({
      type: 'text',
      text: { body: 'Назовите номер заказа' },
    });
  });

  it('past three options sends a list (titles cut, ids whole); past ten, numbered text', () => {
    const label = (i: number) => `Вариант номер ${i} с длинным названием`;
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => [{ label: label(i + 1), data: label(i + 1) }]);
    const list = interactiveBody('1', { text: 'Выберите', attachments: [], buttons: rows(4) });
    expect(list).toMatchObject({ type: 'interactive', interactive: { type: 'list' } });
    const row = (list.interactive as { action: { sections: Array<{ rows: unknown[] }> } }).action.sections[0]!
      .rows[0];
    expect(row).toEqual({ id: label(1), title: label(1).slice(0, 24), description: label(1) });
    const text = interactiveBody('1', { text: 'Выберите', attachments: [], buttons: rows(11) });
    expect(text).toMatchObject({ type: 'text' });
    expect((text.text as { body: string }).body).toContain(`11. ${label(11)}`);
  });
});

describe('bot menus as Viber keyboards', { timeout: 120_000 }, () => {
  const w = new ViberTestbed();
  beforeAll(() => w.start(), 240_000);
  afterAll(() => w.close());

  it('sends a keyboard of reply buttons; the ActionBody that comes back answers the option', async () => {
    const bot = await w.connectBot();
    const rules = await botOn(w.t, w.headers, w.spaceId, bot.id);
    const settle = async () => {
      await rules.drain();
      await w.drain();
    };
    await w.emu.pushMessage(bot.token, { userId: bot.user, text: 'Здравствуйте' });
    await settle();
    const menu = w.emu.sent().at(-1)!.body as Record<string, unknown>;
    expect(menu).toMatchObject({
      receiver: bot.user,
      text: 'Чем помочь?',
      keyboard: {
        Type: 'keyboard',
        Buttons: [
          { Columns: 6, Rows: 1, ActionType: 'reply', ActionBody: 'Статус заказа', Text: 'Статус заказа' },
          { Columns: 6, Rows: 1, ActionType: 'reply', ActionBody: 'Другое', Text: 'Другое' },
        ],
      },
    });
    await w.emu.userTaps(bot.token, bot.user, 'Статус заказа');
    await settle();
    const next = w.emu.sent().at(-1)!.body as Record<string, unknown>;
    expect(next.text).toBe('Назовите номер заказа');
    expect(next.keyboard).toBeUndefined();
  });
});
