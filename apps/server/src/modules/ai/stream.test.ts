import { type IncomingMessage, request } from 'node:http';
import { type AiStreamLine, textLimit } from '@otklik/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildChat, buildComment, buildObject } from '../../../test/inbox-actions';
import { type OpenAiStub, startOpenAiStub } from '../../../test/openai-stub';
import { buildAdmin } from '../authors/test-helpers';

// Streaming suggestions (issue 21) on the real database against the local OpenAI-compatible stub in
// its streaming mode: the text arrives piece by piece as JSON lines and ends with the whole text;
// refusals before the first byte stay JSON errors; a stream that breaks off ends with a translated
// error line; an operator who stops closes the connection and the provider's request is aborted.

let t: TestApp;
let stub: OpenAiStub;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  stub = await startOpenAiStub();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 240_000);
afterAll(async () => {
  await stub?.close();
  await t?.close();
}, 120_000);

const ON = { ai: true, templates: true };

async function setup(provider = 'vk') {
  const admin = await buildAdmin(t, ON);
  const object = await buildObject(t, admin.space.id, { provider });
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/ai/agents',
    headers: admin.headers,
    payload: { space_id: admin.space.id, name: 'Поток', base_url: stub.baseUrl, model: 'stub-stream' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { admin, object, agentId: (res.json() as { id: number }).id };
}

const lines = (body: string) =>
  body
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AiStreamLine);

describe('AI suggestions, streamed', { timeout: 120_000 }, () => {
  it('sends the text piece by piece, then the whole; the prompt asks for the network’s limit', async () => {
    const { admin, object, agentId } = await setup('vk');
    const item = await buildComment(t, object, { text: 'Когда привезут заказ? STREAM-MARK' });
    stub.reply.text = 'Здравствуйте! Заказ приедет завтра утром.';
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/ai/suggest/stream',
      headers: admin.headers,
      payload: { agent_id: agentId, item_id: item.id, mode: 'shorten', text: 'Длинный черновик ответа' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-ndjson');
    const got = lines(res.body);
    const deltas = got.flatMap((line) => ('delta' in line ? [line.delta] : []));
    expect(deltas.length).toBe(5);
    expect(deltas.join('')).toBe('Здравствуйте! Заказ приедет завтра утром.');
    expect(got.at(-1)).toEqual({ done: true, text: 'Здравствуйте! Заказ приедет завтра утром.' });
    const sent = stub.requests.at(-1)!;
    expect(sent.body.stream).toBe(true);
    const prompt = JSON.stringify(sent.body.messages);
    expect(prompt).toContain('STREAM-MARK');
    expect(prompt).toContain(`at most ${textLimit('vk', 'comment', false)} characters`);
  });

  it('summarizes a chat for the operator in their language', async () => {
    const { admin, object, agentId } = await setup('telegram');
    const chat = await buildChat(t, object, { text: 'Хочу вернуть товар SUMMARY-MARK' });
    stub.reply.text = '- Клиент хочет вернуть товар';
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/ai/suggest/stream?locale=en',
      headers: admin.headers,
      payload: { agent_id: agentId, chat_id: chat.id, mode: 'summarize' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(lines(res.body).at(-1)).toEqual({ done: true, text: '- Клиент хочет вернуть товар' });
    const prompt = JSON.stringify(stub.requests.at(-1)!.body.messages);
    expect(prompt).toContain('SUMMARY-MARK');
    expect(prompt).toContain('Summarize the conversation for a colleague in the language \\"en\\"');
    // A summary reads the conversation only: no draft section.
    expect(prompt).not.toContain('Draft:');
  });

  it('a refusal before the stream is a JSON error; a stream that breaks off ends with an error line', async () => {
    const { admin, object, agentId } = await setup();
    const item = await buildComment(t, object);
    const ask = (locale: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/ai/suggest/stream?locale=${locale}`,
        headers: admin.headers,
        payload: { agent_id: agentId, item_id: item.id, mode: 'reply' },
      });
    try {
      stub.reply.status = 429;
      const refused = await ask('en');
      expect(refused.statusCode).toBe(502);
      expect(refused.json().error).toBe('The AI provider is rate limiting requests (429): try again later');
      stub.reply.status = 200;
      stub.reply.text = 'Раз два три четыре';
      stub.reply.breakAfter = 2;
      const broken = await ask('ru');
      expect(broken.statusCode).toBe(200);
      const got = lines(broken.body);
      expect(got.filter((line) => 'delta' in line).length).toBe(2);
      expect(got.at(-1)).toEqual({
        error: 'Ответ ИИ-провайдера оборвался: повторите запрос',
        error_type: 'ai_provider',
      });
    } finally {
      stub.reply.status = 200;
      stub.reply.breakAfter = 0;
    }
  });

  it('stopping closes the provider’s request too', async () => {
    const { admin, object, agentId } = await setup();
    const item = await buildComment(t, object);
    stub.reply.text = 'Первое слово и дальше долгий текст';
    stub.reply.hold = true;
    try {
      const before = stub.cancelled;
      const providerClosed = stub.nextCancel();
      // The operator's browser closes the connection. (Not fetch with an AbortController: Node's fetch
      // keeps the aborted socket open, so the server would hold the request until its own timeout and
      // the file's close would wait ~70 s for it.)
      const req = request(`${baseUrl}/v1/ai/suggest/stream`, {
        method: 'POST',
        headers: { ...admin.headers, 'content-type': 'application/json' },
      });
      req.end(JSON.stringify({ agent_id: agentId, item_id: item.id, mode: 'reply' }));
      const res = await new Promise<IncomingMessage>((resolve, reject) => {
        req.once('response', resolve);
        req.once('error', reject);
      });
      expect(res.statusCode).toBe(200);
      const first = String(await new Promise<Buffer>((resolve) => res.once('data', resolve)));
      expect(JSON.parse(first.split('\n')[0]!)).toEqual({ delta: 'Первое ' });
      req.destroy();
      await providerClosed;
      expect(stub.cancelled).toBe(before + 1);
    } finally {
      stub.reply.hold = false;
    }
  });
});
