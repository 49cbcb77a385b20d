import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildObject } from '../../../test/inbox-actions';
import { commentEvent } from '../../../test/inbox-helpers';
import { type OpenAiStub, startOpenAiStub } from '../../../test/openai-stub';
import { rulesWorkerOf } from '../../../test/rules-worker';
import { items, notes, ruleMatches } from '../../db/schema';
import { buildAdmin } from '../authors/test-helpers';
import { ingest } from '../inbox/ingest/ingest';

// The auto-rule action "reply with AI suggestion" (issue 21) on the real database against the local
// OpenAI-compatible stub: the stub's text is sent as the reply (or kept as a note), a provider failure
// sends the fallback with the reason in the run, without a fallback the run fails into settings/errors,
// and the prompt holds this space's conversation only.

let t: TestApp;
let stub: OpenAiStub;
beforeAll(async () => {
  t = await createTestApp({ AI_TIMEOUT_MS: '800' });
  stub = await startOpenAiStub();
}, 240_000);
afterAll(async () => {
  await stub?.close();
  await t?.close();
});

const db = () => t.deps.database.db;
type Headers = Record<string, string>;

async function scene(label: string) {
  const admin = await buildAdmin(t, { ai: true, templates: true });
  const spaceId = admin.space.id;
  const object = await buildObject(t, spaceId);
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/ai/agents',
    headers: admin.headers,
    payload: {
      space_id: spaceId,
      name: `Агент ${label}`,
      base_url: stub.baseUrl,
      model: 'stub-model',
      api_key: 'sk-SECRET-auto',
      instructions: `Be brief. ${label}-INSTRUCTIONS`,
      knowledge: [],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  const agentId = (res.json() as { id: number }).id;
  const worker = rulesWorkerOf(t, [spaceId]);
  const arrive = async (text: string, author = `u-${label}-${Math.random()}`) => {
    const result = await ingest({ db: db(), bus: t.deps.bus }, object, [
      commentEvent({ text, author: { externalId: author, name: `Покупатель ${label}` } }),
    ]);
    await worker.drain();
    return result.itemIds[0]!;
  };
  return { admin, spaceId, object, agentId, arrive };
}

async function createRule(headers: Headers, spaceId: number, action: Record<string, unknown>, status = 200) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/rules',
    headers,
    payload: {
      space_id: spaceId,
      name: 'ИИ отвечает',
      trigger: 'item_created',
      minutes: null,
      paused: false,
      stop_processing: false,
      position: 0,
      conditions: { all: [{ type: 'text_contains', values: ['доставка'] }] },
      actions: [{ type: 'ai_reply', ...action }],
    },
  });
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as { id: number; fields?: Record<string, string> };
}

const repliesTo = async (itemId: number) =>
  db()
    .select({ text: items.text })
    .from(items)
    .where(and(eq(items.parentId, itemId), eq(items.isOwn, true)));

const matchOf = async (ruleId: number, itemId: number) =>
  (
    await db()
      .select()
      .from(ruleMatches)
      .where(and(eq(ruleMatches.ruleId, ruleId), eq(ruleMatches.itemId, itemId)))
  )[0]!;

describe('auto-rule ai_reply', { timeout: 120_000 }, () => {
  it('needs an agent; sends the stub’s answer as the reply; the prompt holds only this space’s data', async () => {
    stub.reply.status = 200;
    stub.reply.text = 'Доставка занимает три дня.';
    const other = await scene('OTHER');
    await other.arrive('OTHER-SPACE-SECRET про доставка', 'shared-author');
    const { admin, spaceId, agentId, arrive } = await scene('MINE');

    const bad = await createRule(admin.headers, spaceId, {}, 400);
    expect(Object.values(bad.fields ?? {})).toContain('Выберите ИИ-агента');

    const rule = await createRule(admin.headers, spaceId, { agent_id: agentId, mode: 'send' });
    const before = stub.requests.length;
    const itemId = await arrive('Сколько идёт доставка?', 'shared-author');
    expect(stub.requests.length).toBe(before + 1);
    expect(await repliesTo(itemId)).toEqual([{ text: 'Доставка занимает три дня.' }]);
    const match = await matchOf(rule.id, itemId);
    expect(match.status).toBe('ok');
    expect(match.results).toEqual([
      expect.objectContaining({ type: 'ai_reply', outcome: 'queued', detail: 'Доставка занимает три дня.' }),
    ]);

    const prompt = JSON.stringify(stub.requests.at(-1)!.body.messages);
    expect(prompt).toContain('Сколько идёт доставка?');
    expect(prompt).toContain('MINE-INSTRUCTIONS');
    expect(prompt).not.toContain('OTHER');
    expect(prompt).not.toContain('sk-SECRET');
    // Sent without an operator: the model is told so.
    expect(prompt).toContain('sent to the customer as it is');

    // Another space's agent is refused at run time (skipped, nothing asked).
    const foreign = await scene('FOREIGN');
    const rule2 = await createRule(admin.headers, spaceId, { agent_id: foreign.agentId });
    const n = stub.requests.length;
    const second = await arrive('А доставка в выходные?');
    expect(stub.requests.length).toBe(n + 1); // only the first rule asked its own agent
    expect((await matchOf(rule2.id, second)).results).toEqual([
      expect.objectContaining({ type: 'ai_reply', outcome: 'skipped', reason: 'rules.skip.agent' }),
    ]);
  });

  it('keeps the answer as a note for the operator to confirm (mode note), sends nothing', async () => {
    stub.reply.status = 200;
    stub.reply.text = 'Черновик ответа от ИИ';
    const { admin, spaceId, agentId, arrive } = await scene('NOTE');
    await createRule(admin.headers, spaceId, { agent_id: agentId, mode: 'note' });
    const itemId = await arrive('Где моя доставка?');
    expect(await repliesTo(itemId)).toEqual([]);
    const kept = await db().select().from(notes).where(eq(notes.itemId, itemId));
    expect(kept).toHaveLength(1);
    expect(kept[0]!.text).toContain('Черновик ответа от ИИ');
    expect(kept[0]!.userId).toBe(admin.user.id);
    expect(JSON.stringify(stub.requests.at(-1)!.body.messages)).toContain('reviews and edits');
  });

  it('on a provider error sends the fallback (reason kept); without one the run fails into settings/errors', async () => {
    const { admin, spaceId, agentId, arrive } = await scene('FAIL');
    stub.reply.status = 500;
    try {
      const withFallback = await createRule(admin.headers, spaceId, {
        agent_id: agentId,
        fallback_text: 'Спасибо! Оператор скоро ответит.',
      });
      const first = await arrive('доставка сломалась');
      expect(await repliesTo(first)).toEqual([{ text: 'Спасибо! Оператор скоро ответит.' }]);
      expect((await matchOf(withFallback.id, first)).results).toEqual([
        expect.objectContaining({ outcome: 'queued', reason: 'ai.provider.failed' }),
      ]);

      await t.app.inject({
        method: 'PUT',
        url: `/v1/rules/${withFallback.id}`,
        headers: admin.headers,
        payload: {
          name: 'ИИ отвечает',
          trigger: 'item_created',
          minutes: null,
          paused: false,
          stop_processing: false,
          position: 0,
          conditions: { all: [{ type: 'text_contains', values: ['доставка'] }] },
          actions: [{ type: 'ai_reply', agent_id: agentId }],
        },
      });
      const second = await arrive('доставка опять');
      expect(await repliesTo(second)).toEqual([]);
      const failed = await matchOf(withFallback.id, second);
      expect(failed.status).toBe('failed');
      const errors = await t.app.inject({ url: '/v1/errors/rules?locale=en', headers: admin.headers });
      expect(errors.json().items).toEqual([
        expect.objectContaining({ item_id: second, rule_id: withFallback.id }),
      ]);
      expect(errors.json().items[0].error).toMatch(/AI provider/i);
    } finally {
      stub.reply.status = 200;
    }
  });
});
