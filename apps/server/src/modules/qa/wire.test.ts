import { describe, expect, it } from 'vitest';
import { listRowKeys, openApiSuite, successSchema } from '../../../test/openapi-doc';
import { buildAdmin } from '../authors/test-helpers';

// Issue 12 point 4, the wire contract: /v1/openapi.json documents what the quality-check operations
// answer, from the shared schemas (packages/shared qa-wire.ts); the answers no other test reads go
// through those schemas here (the scorecards list and record, sampling on demand, the overview, delete).

const suite = openApiSuite(240_000);

const success = (method: string, path: string) => successSchema(suite.doc, method, path);
const rowKeys = (method: string, path: string) => listRowKeys(suite.doc, method, path);

const SCORECARD = [
  'id',
  'space_id',
  'name',
  'criteria',
  'random_percent',
  'conditions',
  'active',
  'updated_at',
];
const SAMPLE = ['id', 'scorecard_id', 'operator', 'reply_at', 'status', 'scores', 'total', 'reviewed_at'];
const APPROVAL = ['id', 'reply_id', 'operator', 'customer_text', 'text', 'status', 'deadline', 'can_decide'];
const MEMBER = ['user_id', 'name', 'required', 'until', 'active'];

describe('quality check: documented answers', () => {
  it('scorecards and sampling', () => {
    expect(rowKeys('get', '/v1/qa/scorecards')).toEqual(SCORECARD);
    for (const [method, path] of [
      ['post', '/v1/qa/scorecards'],
      ['get', '/v1/qa/scorecards/{id}'],
      ['put', '/v1/qa/scorecards/{id}'],
    ] as const)
      expect(success(method, path).required, `${method} ${path}`).toEqual(SCORECARD);
    expect(success('delete', '/v1/qa/scorecards/{id}').required).toEqual(['message']);
    expect(success('post', '/v1/qa/sampling/run').required).toEqual(['random', 'condition']);
  });

  it('samples, reviews and figures', () => {
    expect(rowKeys('get', '/v1/qa/samples')).toEqual(expect.arrayContaining(SAMPLE));
    expect(rowKeys('get', '/v1/qa/my')).toEqual(expect.arrayContaining(SAMPLE));
    expect(success('post', '/v1/qa/samples/{id}/review').required).toEqual(expect.arrayContaining(SAMPLE));
    expect(success('get', '/v1/qa/samples/{id}').required).toEqual(
      expect.arrayContaining([...SAMPLE, 'criteria', 'conversation', 'can_review']),
    );
    expect(success('post', '/v1/qa/samples/{id}/ai-score').required).toEqual(['agent', 'scores', 'comment']);
    expect(success('get', '/v1/qa/stats').required).toEqual(['weeks', 'operators', 'criteria']);
    expect(success('get', '/v1/qa/overview').required).toEqual([
      'pending',
      'reviewed_week',
      'average_week',
      'my_reviews',
      'my_average',
      'can_review',
      'can_manage',
    ]);
  });

  it('approval mode: members, the queue and decisions', () => {
    expect(rowKeys('get', '/v1/qa/approval-members')).toEqual(MEMBER);
    expect(success('put', '/v1/qa/approval-members/{userId}').required).toEqual(MEMBER);
    expect(rowKeys('get', '/v1/qa/approvals')).toEqual(expect.arrayContaining(APPROVAL));
    for (const [method, path] of [
      ['get', '/v1/qa/approvals/{id}'],
      ['put', '/v1/qa/approvals/{id}'],
      ['post', '/v1/qa/approvals/{id}/approve'],
      ['post', '/v1/qa/approvals/{id}/reject'],
    ] as const)
      expect(success(method, path).required, `${method} ${path}`).toEqual(expect.arrayContaining(APPROVAL));
  });
});

describe('quality check: answers through the schemas', { timeout: 120_000 }, () => {
  it('a manager lists, reads, samples with and deletes a scorecard; the overview says what they may do', async () => {
    const admin = await buildAdmin(suite.t, { qa: true, random: true });
    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      suite.t.app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });
    const created = await call('POST', '/v1/qa/scorecards', {
      space_id: admin.space.id,
      name: 'Main',
      criteria: [{ name: 'Greeting', kind: 'yesno', weight: 1 }],
      random_percent: 10,
    });
    expect(created.statusCode, created.body).toBe(200);
    const card = created.json();
    expect(card).toMatchObject({
      name: 'Main',
      criteria: [{ name: 'Greeting', kind: 'yesno', weight: 1, critical: false }],
      conditions: { object_ids: [], providers: [], user_ids: [] },
    });

    const list = await call('GET', `/v1/qa/scorecards?space_id=${admin.space.id}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual({ items: [card] });
    const one = await call('GET', `/v1/qa/scorecards/${card.id}`);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual(card);

    // No replies in the space: nothing to sample.
    const run = await call('POST', '/v1/qa/sampling/run', { space_id: admin.space.id });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json()).toEqual({ random: 0, condition: 0 });

    const overview = await call('GET', '/v1/qa/overview');
    expect(overview.statusCode, overview.body).toBe(200);
    expect(overview.json()).toEqual({
      pending: 0,
      reviewed_week: 0,
      average_week: null,
      my_reviews: 0,
      my_average: null,
      can_review: true,
      can_manage: true,
    });

    const removed = await call('DELETE', `/v1/qa/scorecards/${card.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ message: 'ok' });
    expect((await call('GET', `/v1/qa/scorecards/${card.id}`)).statusCode).toBe(404);
  });
});
