import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAiStub, startOpenAiStub } from '../../../test/openai-stub';
import {
  botChat,
  connectBot,
  customer,
  newBot,
  startTelegramWorld,
  type TelegramWorld,
} from '../../../test/providers/telegram';
import { rulesWorkerOf } from '../../../test/rules-worker';
import { mergeSpaceSettings } from '../users/testing';

// The chat-bot step "AI answer" (issue 21) on the real database, the Telegram emulator and the local
// OpenAI-compatible stub: the agent's answer to the chat goes to the customer through the send path; a
// provider failure sends the step's fallback text and is listed on settings/errors (GET /v1/errors/bots)
// and in the chat's history; the prompt is this chat's conversation only.

let w: TelegramWorld;
let stub: OpenAiStub;
beforeAll(async () => {
  w = await startTelegramWorld({ AI_TIMEOUT_MS: '800' });
  stub = await startOpenAiStub();
  await mergeSpaceSettings(w.t, w.spaceId, { bots: true, ai: true });
}, 240_000);
afterAll(async () => {
  await stub?.close();
  await w?.close();
});

describe('chat-bot AI step', { timeout: 120_000 }, () => {
  it('sends the agent’s answer; on a provider error sends the fallback and lists the failure on settings/errors', async () => {
    const agent = await w.api('POST', '/v1/ai/agents', {
      space_id: w.spaceId,
      name: 'Бот-помощник',
      base_url: stub.baseUrl,
      model: 'stub-model',
      api_key: 'sk-BOT-SECRET',
      instructions: 'BOT-INSTRUCTIONS',
      knowledge: [],
    });
    const bot = newBot(w.tg);
    const { account } = await connectBot(w, bot.token);
    const missing = await w.api(
      'POST',
      '/v1/bots',
      { space_id: w.spaceId, object_id: account.id, name: 'ИИ', steps: [{ id: 'ai', type: 'ai' }] },
      400,
    );
    expect(Object.values(missing.fields)).toContain('Выберите ИИ-агента');
    await w.api('POST', '/v1/bots', {
      space_id: w.spaceId,
      object_id: account.id,
      name: 'ИИ',
      steps: [
        { id: 'ai', type: 'ai', agent_id: agent.id, fallback_text: 'Оператор скоро ответит' },
        { id: 'handoff', type: 'handoff' },
      ],
    });
    const rules = rulesWorkerOf(w.t, [w.spaceId]);
    const write = botChat(w, bot, rules);

    stub.reply.text = 'Заказ приедет завтра.';
    const before = stub.requests.length;
    expect(await write(customer(), 'Когда приедет заказ BOT-CHAT-MARK?')).toEqual(['Заказ приедет завтра.']);
    expect(stub.requests.length).toBe(before + 1);
    const prompt = JSON.stringify(stub.requests.at(-1)!.body.messages);
    expect(prompt).toContain('BOT-CHAT-MARK');
    expect(prompt).toContain('BOT-INSTRUCTIONS');
    expect(prompt).not.toContain('sk-BOT-SECRET');
    expect(stub.requests.at(-1)!.headers.authorization).toBe('Bearer sk-BOT-SECRET');

    // The provider fails: the fallback goes out, and the failure is on settings/errors and in the history.
    stub.reply.status = 503;
    try {
      const other = customer();
      expect(await write(other, 'Алло, где заказ?')).toEqual(['Оператор скоро ответит']);
      // Only this chat's text went to the provider, not the first customer's.
      expect(JSON.stringify(stub.requests.at(-1)!.body.messages)).not.toContain('BOT-CHAT-MARK');
    } finally {
      stub.reply.status = 200;
    }
    const errors = await w.t.app.inject({ url: '/v1/errors/bots?locale=ru', headers: w.headers });
    expect(errors.statusCode, errors.body).toBe(200);
    expect(errors.json().items).toEqual([
      expect.objectContaining({ bot: 'ИИ', step_id: 'ai', error: expect.stringContaining('ИИ-провайдер') }),
    ]);
  });
});
