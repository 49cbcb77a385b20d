import { presetFor } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildComment, buildObject } from '../../../test/inbox-actions';
import { type OpenAiStub, startOpenAiStub } from '../../../test/openai-stub';
import { items, qaSamples } from '../../db/schema';
import { buildAdmin, buildMember } from '../authors/test-helpers';
import { parseScoring } from './ai-score';
import { sampleSpace } from './sampling';

// AI pre-scoring of a quality-check review (issue 21) on the real database against the OpenAI stub:
// the proposal carries only valid values, nothing is saved until the reviewer saves, only reviewers
// may ask, and the prompt holds that one sample's conversation and the scorecard.

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

const criteria = [
  { id: 'greet', name: 'Greeting', kind: 'yesno' as const, weight: 1, critical: false },
  { id: 'tone', name: 'Tone', kind: 'scale' as const, weight: 3, critical: false },
];

describe('parseScoring', () => {
  it('keeps valid values of known criteria and the comment', () => {
    expect(
      parseScoring('Вот: {"scores": {"greet": 1, "tone": 4, "x": 5}, "comment": " Хорошо "}', criteria),
    ).toEqual({
      scores: { greet: 1, tone: 4 },
      comment: 'Хорошо',
    });
    expect(parseScoring('{"scores": {"greet": 3, "tone": 0}}', criteria)).toEqual({
      scores: {},
      comment: '',
    });
    expect(parseScoring('no json', criteria)).toEqual({ scores: {}, comment: '' });
  });
});

describe('POST /v1/qa/samples/:id/ai-score', { timeout: 120_000 }, () => {
  it('proposes a review from the sample’s conversation; nothing is saved; only reviewers may ask', async () => {
    const admin = await buildAdmin(t, { qa: true, random: true, templates: true, ai: true });
    const spaceId = admin.space.id;
    const db = t.deps.database.db;
    const reviewer = await buildMember(t, spaceId, { ...presetFor('operator'), qa: true, templates: true });
    const alice = await buildMember(t, spaceId, 'operator', { name: 'Alice' });
    const object = await buildObject(t, spaceId, { provider: 'telegram' });
    const comment = await buildComment(t, object, { text: 'Где мой заказ? SAMPLE-MARK' });
    await db.insert(items).values({
      spaceId,
      objectId: object.id,
      parentId: comment.id,
      kind: 'comment',
      externalId: `own-ai-${comment.id}`,
      isOwn: true,
      userId: alice.user.id,
      text: 'Заказ в пути REPLY-MARK',
      delivery: 'sent',
      status: 'closed',
      createdAt: new Date('2026-11-10T09:00:00Z'),
    });
    const card = await t.app.inject({
      method: 'POST',
      url: '/v1/qa/scorecards',
      headers: admin.headers,
      payload: {
        space_id: spaceId,
        name: 'Ответы',
        random_percent: 100,
        criteria: criteria.map(({ id: _id, ...c }) => c),
      },
    });
    expect(card.statusCode, card.body).toBe(200);
    const ids = (card.json() as { criteria: { id: string }[] }).criteria.map((c) => c.id);
    await sampleSpace(db, spaceId, { now: new Date('2026-11-18T12:00:00Z'), seed: 'ai' });
    const [sample] = await db.select().from(qaSamples).where(eq(qaSamples.spaceId, spaceId));
    expect(sample).toBeDefined();
    const ask = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: `/v1/qa/samples/${sample!.id}/ai-score?locale=en`, headers });

    // Without an agent the reviewer is told what to do.
    const none = await ask(reviewer.headers);
    expect(none.statusCode).toBe(409);
    expect(none.json().error).toBe('The space has no AI agent: add one in Settings → AI assistant');

    const agent = await t.app.inject({
      method: 'POST',
      url: '/v1/ai/agents',
      headers: admin.headers,
      payload: { space_id: spaceId, name: 'Контроль', base_url: stub.baseUrl, model: 'stub-qa' },
    });
    expect(agent.statusCode, agent.body).toBe(200);
    stub.reply.text = `{"scores": {"${ids[0]}": 1, "${ids[1]}": 7}, "comment": "Вежливо, но без сроков"}`;
    const res = await ask(reviewer.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      agent: { id: agent.json().id, name: 'Контроль' },
      scores: { [ids[0]!]: 1 },
      comment: 'Вежливо, но без сроков',
    });
    const prompt = JSON.stringify(stub.requests.at(-1)!.body.messages);
    expect(prompt).toContain('SAMPLE-MARK');
    expect(prompt).toContain('>>> Operator: Заказ в пути REPLY-MARK');
    expect(prompt).toContain(`id \\"${ids[1]}\\": Tone (a score from 1 to 5)`);
    // A proposal only: the sample is still waiting for its review.
    const [after] = await db.select().from(qaSamples).where(eq(qaSamples.id, sample!.id));
    expect(after!.status).toBe('pending');

    // The operator under review may not ask for it.
    expect((await ask(alice.headers)).statusCode).toBe(403);
    // Nothing readable: a clear error.
    stub.reply.text = 'I cannot score this.';
    const unreadable = await ask(reviewer.headers);
    expect(unreadable.statusCode).toBe(502);
    expect(unreadable.json().error).toBe(
      'The AI agent gave no scores for the criteria: score by hand or try again',
    );
  });
});
