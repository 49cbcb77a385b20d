import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildChat, buildComment, buildObject } from '../../../test/inbox-actions';
import { type OpenAiStub, startOpenAiStub } from '../../../test/openai-stub';
import { aiAgents, auditLog } from '../../db/schema';
import { buildAdmin, buildMember, buildUserGroup } from '../authors/test-helpers';

// AI assistant (issue 21) on the real database against a local OpenAI-compatible stub: the key sealed
// at rest and never returned nor prompted, the prompt built from that one conversation, other spaces
// 404, provider failures as translated errors.

let t: TestApp;
let stub: OpenAiStub;
beforeAll(async () => {
  // A short provider timeout so the timeout case stays quick.
  t = await createTestApp({ AI_TIMEOUT_MS: '800' });
  stub = await startOpenAiStub();
}, 240_000);
afterAll(async () => {
  await stub?.close();
  await t?.close();
});

type Headers = Record<string, string>;
const ON = { ai: true, templates: true };
const db = () => t.deps.database.db;
const KEY = 'sk-test-SECRET-0123456789';

async function createAgent(headers: Headers, spaceId: number, extra: Record<string, unknown> = {}) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/ai/agents',
    headers,
    payload: {
      space_id: spaceId,
      name: 'Помощник',
      base_url: stub.baseUrl,
      model: 'stub-model',
      api_key: KEY,
      instructions: 'Always greet by name. INSTRUCTION-MARK',
      knowledge: ['Delivery takes 3 days. KNOWLEDGE-MARK'],
      ...extra,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; api_key_set: boolean };
}

function suggest(headers: Headers, payload: Record<string, unknown>, locale = 'ru') {
  return t.app.inject({ method: 'POST', url: `/v1/ai/suggest?locale=${locale}`, headers, payload });
}

describe('AI agents — settings', { timeout: 120_000 }, () => {
  it('stores the key sealed, never returns it, lists the agent in objects; operators cannot manage', async () => {
    const admin = await buildAdmin(t, ON);
    const spaceId = admin.space.id;
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/ai/agents',
      headers: admin.headers,
      payload: { space_id: spaceId, name: ' ', base_url: 'ftp://x', model: '' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({
      name: 'Введите название агента',
      base_url: 'Введите адрес API, например https://api.openai.com/v1',
      model: 'Введите модель',
    });

    const agent = await createAgent(admin.headers, spaceId);
    expect(agent.api_key_set).toBe(true);
    const [row] = await db().select().from(aiAgents).where(eq(aiAgents.id, agent.id));
    expect(row!.apiKeySealed).toMatch(/^v1\./);
    expect(row!.apiKeySealed).not.toContain(KEY);
    expect(t.deps.sealer.open(row!.apiKeySealed!)).toBe(KEY);

    const one = await t.app.inject({ url: `/v1/ai/agents/${agent.id}`, headers: admin.headers });
    const list = await t.app.inject({ url: '/v1/ai/agents', headers: admin.headers });
    const objects = await t.app.inject({ url: '/v1/objects?tags=true', headers: admin.headers });
    for (const res of [one, list, objects]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(KEY);
      expect(res.body).not.toContain(row!.apiKeySealed!);
    }
    expect(objects.json().ai_agents).toEqual([{ id: agent.id, space_id: spaceId, name: 'Помощник' }]);

    // Keeping the key when it is absent, removing it with an empty string.
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/v1/ai/agents/${agent.id}`,
      headers: admin.headers,
      payload: { name: 'Ассистент' },
    });
    expect(renamed.json()).toMatchObject({ name: 'Ассистент', api_key_set: true });
    const cleared = await t.app.inject({
      method: 'PUT',
      url: `/v1/ai/agents/${agent.id}`,
      headers: admin.headers,
      payload: { api_key: '' },
    });
    expect(cleared.json().api_key_set).toBe(false);

    const operator = await buildMember(t, spaceId, 'operator');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/v1/ai/agents',
          headers: operator.headers,
          payload: { space_id: spaceId, name: 'x', base_url: stub.baseUrl, model: 'm' },
        })
      ).statusCode,
    ).toBe(403);
    // Operators see the agent in objects (they use it), not its settings.
    const theirs = await t.app.inject({ url: '/v1/objects?tags=true', headers: operator.headers });
    expect(theirs.json().ai_agents).toEqual([{ id: agent.id, space_id: spaceId, name: 'Ассистент' }]);
    expect(
      (await t.app.inject({ url: `/v1/ai/agents/${agent.id}`, headers: operator.headers })).statusCode,
    ).toBe(403);

    const stranger = await buildAdmin(t, ON);
    expect(
      (await t.app.inject({ url: `/v1/ai/agents/${agent.id}`, headers: stranger.headers })).statusCode,
    ).toBe(404);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/v1/ai/agents/${agent.id}`,
      headers: admin.headers,
    });
    expect(del.statusCode).toBe(200);
    const logged = await db()
      .select({ kind: auditLog.kind, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'ai_agent'), eq(auditLog.targetId, String(agent.id))));
    expect(logged.map((r) => r.kind)).toEqual(
      expect.arrayContaining(['ai_agent.created', 'ai_agent.updated', 'ai_agent.deleted']),
    );
    expect(JSON.stringify(logged)).not.toContain(KEY);
    expect(t.logs.join('')).not.toContain(KEY);
  });
});

describe('AI suggestions', { timeout: 120_000 }, () => {
  it('builds the prompt from that conversation and the instructions, with the key only in the header', async () => {
    const admin = await buildAdmin(t, ON);
    const object = await buildObject(t, admin.space.id);
    const item = await buildComment(t, object, { text: 'Where is my parcel? ITEM-MARK' });
    // Another space's conversation must never reach the prompt.
    const other = await buildAdmin(t, ON);
    const otherObject = await buildObject(t, other.space.id);
    const foreign = await buildComment(t, otherObject, { text: 'FOREIGN-MARK secret order' });
    const agent = await createAgent(admin.headers, admin.space.id);

    stub.reply.text = 'Здравствуйте! Посылка будет через 3 дня.';
    const before = stub.requests.length;
    const res = await suggest(admin.headers, { agent_id: agent.id, item_id: item.id, mode: 'reply' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ text: 'Здравствуйте! Посылка будет через 3 дня.' });
    expect(stub.requests.length).toBe(before + 1);
    const sent = stub.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body.model).toBe('stub-model');
    const prompt = JSON.stringify(sent.body.messages);
    expect(prompt).toContain('ITEM-MARK');
    expect(prompt).toContain('INSTRUCTION-MARK');
    expect(prompt).toContain('KNOWLEDGE-MARK');
    expect(prompt).not.toContain(KEY);
    expect(prompt).not.toContain('FOREIGN-MARK');

    // Another space's item with this agent: 404, and the provider is not called.
    const count = stub.requests.length;
    const cross = await suggest(admin.headers, { agent_id: agent.id, item_id: foreign.id, mode: 'reply' });
    expect(cross.statusCode).toBe(404);
    // Another space's agent on one's own item: 404 too.
    const otherAgent = await createAgent(other.headers, other.space.id);
    expect(
      (await suggest(admin.headers, { agent_id: otherAgent.id, item_id: item.id, mode: 'reply' })).statusCode,
    ).toBe(404);
    expect(stub.requests.length).toBe(count);

    // A chat, and a draft to translate.
    const chat = await buildChat(t, object, { text: 'Привет, CHAT-MARK' });
    const tr = await suggest(admin.headers, {
      agent_id: agent.id,
      chat_id: chat.id,
      mode: 'translate',
      target: 'en',
      text: 'DRAFT-MARK спасибо',
    });
    expect(tr.statusCode, tr.body).toBe(200);
    const chatPrompt = JSON.stringify(stub.requests.at(-1)!.body.messages);
    expect(chatPrompt).toContain('CHAT-MARK');
    expect(chatPrompt).toContain('DRAFT-MARK');
    expect(chatPrompt).not.toContain('ITEM-MARK');
  });

  it('a reply suggestion knows the customer’s earlier comments — only on accounts the operator sees', async () => {
    const admin = await buildAdmin(t, ON);
    const spaceId = admin.space.id;
    const mine = await buildObject(t, spaceId, { provider: 'vk' });
    const hidden = await buildObject(t, spaceId, { provider: 'vk' });
    const group = await buildUserGroup(t, spaceId, [mine.id]);
    const operator = await buildMember(t, spaceId, 'operator', { groupId: group.id });
    const author = { externalId: 'vk-ivan', name: 'Иван' };
    await buildComment(t, mine, { author, text: 'HISTORY-SEEN: заказ 1 пришёл мятым' });
    await buildComment(t, hidden, { author, text: 'HISTORY-HIDDEN: про другой аккаунт' });
    const item = await buildComment(t, mine, { author, text: 'NOW-MARK: и второй тоже' });
    // Someone else's comment on the same account is not this customer's history.
    await buildComment(t, mine, { author: { externalId: 'vk-olga', name: 'Ольга' }, text: 'OTHER-AUTHOR' });
    const agent = await createAgent(admin.headers, spaceId);

    stub.reply.text = 'Иван, простите!';
    expect(
      (await suggest(operator.headers, { agent_id: agent.id, item_id: item.id, mode: 'reply' })).statusCode,
    ).toBe(200);
    const sent = stub.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
    let prompt = JSON.stringify(sent);
    expect(prompt).toContain('NOW-MARK');
    // The conversation is the post and this comment; the earlier comment is history, not conversation.
    const conversation = sent[1]!.content.split('\n\n')[0]!;
    expect(conversation).toContain('Post: Our post');
    expect(conversation).toContain('NOW-MARK');
    expect(conversation).not.toContain('HISTORY-SEEN');
    expect(conversation).not.toContain('OTHER-AUTHOR');
    expect(prompt).toContain('in other conversations');
    expect(prompt).toContain('HISTORY-SEEN');
    expect(prompt).not.toContain('HISTORY-HIDDEN');
    expect(prompt).not.toContain('OTHER-AUTHOR');
    // The administrator sees both accounts: both earlier comments.
    await suggest(admin.headers, { agent_id: agent.id, item_id: item.id, mode: 'reply' });
    prompt = JSON.stringify(stub.requests.at(-1)!.body.messages);
    expect(prompt).toContain('HISTORY-SEEN');
    expect(prompt).toContain('HISTORY-HIDDEN');
    // Shortening a draft does not need the history.
    const before = stub.requests.length;
    const short = await suggest(admin.headers, {
      agent_id: agent.id,
      item_id: item.id,
      mode: 'shorten',
      text: 'A long DRAFT to shorten',
    });
    expect(short.statusCode, short.body).toBe(200);
    expect(stub.requests.length).toBe(before + 1);
    expect(JSON.stringify(stub.requests.at(-1)!.body.messages)).not.toContain('HISTORY-SEEN');
  });

  it('provider failures come back as clear ru/en errors: 500, 401, 429, a timeout, unreachable', async () => {
    const admin = await buildAdmin(t, ON);
    const object = await buildObject(t, admin.space.id);
    const item = await buildComment(t, object);
    const agent = await createAgent(admin.headers, admin.space.id);
    const ask = (locale = 'ru') =>
      suggest(admin.headers, { agent_id: agent.id, item_id: item.id, mode: 'reply' }, locale);
    try {
      stub.reply.status = 500;
      let res = await ask();
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe('ИИ-провайдер вернул ошибку (500): повторите позже');
      res = await ask('en');
      expect(res.json().error).toBe('The AI provider returned an error (500): try again later');

      stub.reply.status = 401;
      res = await ask();
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe(
        'ИИ-провайдер отклонил ключ API (401): проверьте ключ в настройках агента',
      );

      stub.reply.status = 429;
      res = await ask('en');
      expect(res.json().error).toBe('The AI provider is rate limiting requests (429): try again later');

      stub.reply.status = 200;
      stub.reply.delayMs = 3000;
      res = await ask();
      expect(res.statusCode).toBe(504);
      expect(res.json().error).toBe('ИИ-провайдер не ответил вовремя: повторите позже');
      stub.reply.delayMs = 0;

      await t.app.inject({
        method: 'PUT',
        url: `/v1/ai/agents/${agent.id}`,
        headers: admin.headers,
        payload: { base_url: 'http://127.0.0.1:9/v1' },
      });
      res = await ask('en');
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe('Could not reach the AI provider: check the API address');
    } finally {
      stub.reply.status = 200;
      stub.reply.delayMs = 0;
    }
  });
});
