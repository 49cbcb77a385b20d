import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildComment, buildObject } from '../../../test/inbox-actions';
import { type OpenAiStub, startOpenAiStub } from '../../../test/openai-stub';
import { tags } from '../../db/schema';
import { buildAdmin } from '../authors/test-helpers';
import { parseTagAnswer } from './tags';

// Tag suggestions (issue 21): the agent picks from its space's tags by number; the answer is only a
// hint — numbers outside the list are dropped, another space's tags never reach the prompt or the
// answer, nothing is tagged by itself.

let t: TestApp;
let stub: OpenAiStub;
beforeAll(async () => {
  t = await createTestApp();
  stub = await startOpenAiStub();
}, 240_000);
afterAll(async () => {
  await stub?.close();
  await t?.close();
}, 120_000);

const offered = [
  { id: 11, name: 'Доставка' },
  { id: 12, name: 'Возврат' },
  { id: 13, name: 'Жалоба' },
];

describe('parseTagAnswer', () => {
  it('reads the first JSON array of list numbers and drops what is not in the list', () => {
    expect(parseTagAnswer('[2, 1]', offered)).toEqual([12, 11]);
    expect(parseTagAnswer('Подходят теги: [3,3, 7, 0] — вот.', offered)).toEqual([13]);
    expect(parseTagAnswer('[]', offered)).toEqual([]);
    expect(parseTagAnswer('none of them', offered)).toEqual([]);
    expect(parseTagAnswer('["1", 2.5, -1]', offered)).toEqual([]);
  });
});

describe('POST /v1/ai/tags', { timeout: 120_000 }, () => {
  it('suggests the space’s own tags for the conversation; another space’s tags never appear', async () => {
    const admin = await buildAdmin(t, { ai: true, templates: true });
    const other = await buildAdmin(t, { ai: true, templates: true });
    const db = t.deps.database.db;
    const [delivery, refund, complaint] = await db
      .insert(tags)
      .values(['Доставка', 'Возврат', 'Жалоба'].map((name) => ({ spaceId: admin.space.id, name })))
      .returning();
    await db.insert(tags).values({ spaceId: other.space.id, name: 'FOREIGN-TAG' });
    const object = await buildObject(t, admin.space.id);
    const item = await buildComment(t, object, { text: 'Хочу вернуть деньги за сломанный товар TAGS-MARK' });
    const agent = await t.app.inject({
      method: 'POST',
      url: '/v1/ai/agents',
      headers: admin.headers,
      payload: { space_id: admin.space.id, name: 'Теги', base_url: stub.baseUrl, model: 'stub-tags' },
    });
    expect(agent.statusCode, agent.body).toBe(200);
    const agentId = (agent.json() as { id: number }).id;

    // Tags are listed by name: 1 Возврат, 2 Доставка, 3 Жалоба. The stub answers with one number
    // outside the list.
    stub.reply.text = 'Подойдут [1, 3, 42]';
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/ai/tags',
      headers: admin.headers,
      payload: { agent_id: agentId, item_id: item.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ tag_ids: [refund!.id, complaint!.id] });
    const prompt = JSON.stringify(stub.requests.at(-1)!.body.messages);
    expect(prompt).toContain('TAGS-MARK');
    expect(prompt).toContain('1. Возврат');
    expect(prompt).toContain('2. Доставка');
    expect(prompt).not.toContain('FOREIGN-TAG');
    expect(stub.requests.at(-1)!.body.stream).toBe(false);
    expect(delivery).toBeDefined();

    // Another space's user cannot ask about this item with their agent, nor with this one.
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/v1/ai/tags',
      headers: other.headers,
      payload: { agent_id: agentId, item_id: item.id },
    });
    expect(theirs.statusCode).toBe(404);
  });
});
