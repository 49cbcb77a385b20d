import { presetFor } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildChat, buildComment, buildObject } from '../../../test/inbox-actions';
import { items, messages, qaSamples, spaces } from '../../db/schema';
import { QaSamplingJob } from '../../jobs/qa-sampling';
import { taskClock } from '../../lib/clock';
import { buildAdmin, buildMember } from '../authors/test-helpers';
import { sampleSpace, weekKey } from './sampling';

// Quality check (issue 21) on the real database: sampling share and determinism with a moved clock and a
// seeded order, scoring by weights with critical criteria, who may review and see what.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 240_000);
afterAll(() => t?.close());

const db = () => t.deps.database.db;
const ON = { qa: true, random: true, templates: true };
// A Wednesday; its week started on Monday 2026-11-16, the week before on 2026-11-09.
const NOW = new Date('2026-11-18T12:00:00Z');
const LAST_WEEK = new Date('2026-11-10T09:00:00Z');

const criteria = [
  { name: 'Greeting', kind: 'yesno', weight: 1, critical: false },
  { name: 'Tone', kind: 'scale', weight: 3, critical: false },
  { name: 'No personal data', kind: 'yesno', weight: 1, critical: true },
];

async function scene() {
  const admin = await buildAdmin(t, ON);
  const spaceId = admin.space.id;
  const object = await buildObject(t, spaceId, { provider: 'telegram' });
  const reviewer = await buildMember(
    t,
    spaceId,
    { ...presetFor('operator'), qa: true },
    { name: 'Rita Reviewer' },
  );
  const alice = await buildMember(t, spaceId, 'operator', { name: 'Alice' });
  const bob = await buildMember(t, spaceId, 'operator', { name: 'Bob' });
  return { admin, spaceId, object, reviewer, alice, bob };
}

/** `n` replies by `userId` to a customer comment, one minute apart from `at`. */
async function replies(object: Awaited<ReturnType<typeof buildObject>>, userId: number, n: number, at: Date) {
  const comment = await buildComment(t, object);
  const rows = Array.from({ length: n }, (_, i) => ({
    spaceId: object.spaceId,
    objectId: object.id,
    parentId: comment.id,
    kind: 'comment' as const,
    externalId: `own-${comment.id}-${userId}-${i}`,
    isOwn: true,
    userId,
    text: `Reply ${i} by ${userId}`,
    delivery: 'sent' as const,
    status: 'closed' as const,
    createdAt: new Date(at.getTime() + i * 60_000),
  }));
  return db().insert(items).values(rows).returning();
}

async function createCard(headers: Record<string, string>, payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/qa/scorecards', headers, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; criteria: Array<{ id: string; name: string }> };
}

async function samplesOf(scorecardId: number) {
  return db().select().from(qaSamples).where(eq(qaSamples.scorecardId, scorecardId));
}

describe('qa — sampling', { timeout: 120_000 }, () => {
  it('takes the share of each operator’s replies of the finished week, the same ones on every run', async () => {
    const { admin, spaceId, object, alice, bob } = await scene();
    await replies(object, alice.user.id, 20, LAST_WEEK);
    await replies(object, bob.user.id, 3, LAST_WEEK);
    // This week's replies wait for the week to end.
    await replies(object, alice.user.id, 4, new Date('2026-11-17T09:00:00Z'));
    const card = await createCard(admin.headers, {
      space_id: spaceId,
      name: 'Main',
      criteria,
      random_percent: 25,
    });

    const job = new QaSamplingJob({ db: db(), log: t.deps.log, spaceIds: [spaceId], seed: 's1' });
    expect(await job.tick(NOW)).toEqual({ random: 6, condition: 0 });
    const first = await samplesOf(card.id);
    // 25% of 20 is 5; of 3 it rounds up to 1 — everyone who replied gets a look.
    expect(first.filter((s) => s.operatorId === alice.user.id)).toHaveLength(5);
    expect(first.filter((s) => s.operatorId === bob.user.id)).toHaveLength(1);
    expect(new Set(first.map((s) => s.week))).toEqual(new Set(['2026-11-09']));
    expect(first.every((s) => s.source === 'random' && s.status === 'pending')).toBe(true);

    // A second tick the same week, or an hour later, adds nothing.
    expect(await job.tick(new Date(NOW.getTime() + 3_600_000))).toEqual({ random: 0, condition: 0 });

    // Determinism: the same seed picks the same replies; another seed orders them differently.
    const picked = first.map((s) => s.replyId).sort();
    await db().delete(qaSamples).where(eq(qaSamples.scorecardId, card.id));
    await sampleSpace(db(), spaceId, { now: NOW, seed: 's1' });
    expect((await samplesOf(card.id)).map((s) => s.replyId).sort()).toEqual(picked);
    await db().delete(qaSamples).where(eq(qaSamples.scorecardId, card.id));
    const others = new Set<string>();
    for (const seed of ['s2', 's3', 's4']) {
      await sampleSpace(db(), spaceId, { now: NOW, seed });
      const got = await samplesOf(card.id);
      expect(got).toHaveLength(6);
      others.add(JSON.stringify(got.map((s) => s.replyId).sort()));
      await db().delete(qaSamples).where(eq(qaSamples.scorecardId, card.id));
    }
    expect(others.has(JSON.stringify(picked)) && others.size === 1).toBe(false);

    // Moving the clock a week on samples the week that has just ended.
    await sampleSpace(db(), spaceId, { now: NOW, seed: 's1' });
    const next = await sampleSpace(db(), spaceId, { now: new Date('2026-11-23T01:00:00Z'), seed: 's1' });
    expect(next).toEqual({ random: 1, condition: 0 });
    expect(weekKey(new Date('2026-11-23T01:00:00Z'))).toBe('2026-11-23');
  });

  it('weeks are the space’s: Monday 00:00 in its time zone, not in UTC', async () => {
    const { admin, spaceId, object, alice } = await scene();
    // Vladivostok is UTC+10: Sunday 20:00 UTC is already Monday 06:00 there.
    await db().update(spaces).set({ timezone: 'Asia/Vladivostok' }).where(eq(spaces.id, spaceId));
    await replies(object, alice.user.id, 1, new Date('2026-11-15T20:00:00Z'));
    const card = await createCard(admin.headers, {
      space_id: spaceId,
      name: 'Local weeks',
      criteria,
      random_percent: 100,
    });
    // Monday 2026-11-23 02:00 UTC is noon there: the local week 2026-11-16 has just ended and holds the
    // reply (in UTC weeks it would belong to the week before, sampled a week earlier).
    expect(await sampleSpace(db(), spaceId, { now: new Date('2026-11-23T02:00:00Z') })).toEqual({
      random: 1,
      condition: 0,
    });
    expect((await samplesOf(card.id)).map((x) => x.week)).toEqual(['2026-11-16']);
    // At 13:00 UTC on Sunday it is 23:00 on Sunday there: that week has not ended yet.
    await db().delete(qaSamples).where(eq(qaSamples.scorecardId, card.id));
    expect(await sampleSpace(db(), spaceId, { now: new Date('2026-11-22T13:00:00Z') })).toEqual({
      random: 0,
      condition: 0,
    });
  });

  it('takes every reply matching the conditions, chats included, this week and last', async () => {
    const { admin, spaceId, object, alice, bob } = await scene();
    const other = await buildObject(t, spaceId, { provider: 'vk' });
    await replies(object, alice.user.id, 2, LAST_WEEK);
    await replies(object, bob.user.id, 2, LAST_WEEK);
    await replies(other, alice.user.id, 2, new Date('2026-11-17T09:00:00Z'));
    const chat = await buildChat(t, object);
    await db()
      .insert(messages)
      .values({
        spaceId,
        chatId: chat.id,
        externalId: `own-m-${chat.id}`,
        isOwn: true,
        userId: alice.user.id,
        text: 'Hello from the chat',
        delivery: 'sent',
        createdAt: new Date('2026-11-18T10:00:00Z'),
      });
    const card = await createCard(admin.headers, {
      space_id: spaceId,
      name: 'Alice on Telegram',
      criteria,
      random_percent: 0,
      conditions: { user_ids: [alice.user.id], providers: ['telegram'] },
    });
    // An update naming one field keeps the others (no defaults come back).
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/v1/qa/scorecards/${card.id}`,
      headers: admin.headers,
      payload: { name: 'Alice, Telegram' },
    });
    expect(renamed.json()).toMatchObject({
      name: 'Alice, Telegram',
      conditions: { user_ids: [alice.user.id], providers: ['telegram'], object_ids: [] },
      active: true,
      random_percent: 0,
    });
    expect(renamed.json().criteria.map((c: { id: string }) => c.id)).toEqual(card.criteria.map((c) => c.id));
    expect(await sampleSpace(db(), spaceId, { now: NOW })).toEqual({ random: 0, condition: 3 });
    const got = await samplesOf(card.id);
    expect(got.every((s) => s.operatorId === alice.user.id && s.objectId === object.id)).toBe(true);
    expect(got.filter((s) => s.kind === 'message').map((s) => [s.chatId, s.week])).toEqual([
      [chat.id, '2026-11-16'],
    ]);
    // Another space's account or a stranger may not be named in conditions.
    const stranger = await buildAdmin(t, ON);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/qa/scorecards',
      headers: admin.headers,
      payload: {
        space_id: spaceId,
        name: 'x',
        criteria,
        random_percent: 0,
        conditions: { user_ids: [stranger.user.id] },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ conditions: 'Условие ссылается на чужой аккаунт или пользователя' });
  });
});

describe('qa — reviews and access', { timeout: 120_000 }, () => {
  it('scores by weights, a critical "no" zeroes the review, the operator sees it in qa/my', async () => {
    const { admin, spaceId, object, reviewer, alice } = await scene();
    await replies(object, alice.user.id, 2, LAST_WEEK);
    const card = await createCard(admin.headers, {
      space_id: spaceId,
      name: 'Main',
      criteria,
      random_percent: 100,
    });
    await sampleSpace(db(), spaceId, { now: NOW });
    const ids = Object.fromEntries(card.criteria.map((c) => [c.name, c.id]));

    const queue = await t.app.inject({ url: '/v1/qa/samples?status=pending', headers: reviewer.headers });
    expect(queue.statusCode, queue.body).toBe(200);
    const [one, two] = queue.json().items as Array<{
      id: number;
      operator: { name: string };
      reply_text: string;
    }>;
    expect(queue.json().items).toHaveLength(2);
    expect(one!.operator.name).toBe('Alice');

    const detail = await t.app.inject({ url: `/v1/qa/samples/${one!.id}`, headers: reviewer.headers });
    expect(detail.json().can_review).toBe(true);
    expect(detail.json().conversation.map((l: { is_sample: boolean }) => l.is_sample)).toContain(true);

    const review = (id: number, scores: Record<string, number>, comment = '') =>
      t.app.inject({
        method: 'POST',
        url: `/v1/qa/samples/${id}/review?locale=en`,
        headers: reviewer.headers,
        payload: { scores, comment },
      });
    // Missing and out-of-scale scores are refused, per criterion.
    const missing = await review(one!.id, { [ids.Greeting!]: 1, [ids.Tone!]: 7 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({
      [`scores.${ids.Tone}`]: 'The score is outside the criterion’s scale',
      [`scores.${ids['No personal data']}`]: 'Score every criterion',
    });
    // Greeting yes (1 × 1), tone 4 of 5 (3 × 0.75), no critical failure (1 × 1): 4.25 / 5 = 85%.
    const good = await review(
      one!.id,
      { [ids.Greeting!]: 1, [ids.Tone!]: 4, [ids['No personal data']!]: 1 },
      'Nice',
    );
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toMatchObject({
      status: 'reviewed',
      total: 85,
      critical_failed: false,
      comment: 'Nice',
    });
    const bad = await review(
      two!.id,
      { [ids.Greeting!]: 1, [ids.Tone!]: 5, [ids['No personal data']!]: 0 },
      'Phone number shown',
    );
    expect(bad.json()).toMatchObject({ total: 0, critical_failed: true });

    const mine = await t.app.inject({ url: '/v1/qa/my', headers: alice.headers });
    expect(mine.statusCode).toBe(200);
    expect(
      mine
        .json()
        .items.map((s: { total: number; comment: string; reviewer: { name: string } }) => [
          s.total,
          s.comment,
          s.reviewer.name,
        ]),
    ).toEqual(
      expect.arrayContaining([
        [85, 'Nice', 'Rita Reviewer'],
        [0, 'Phone number shown', 'Rita Reviewer'],
      ]),
    );
    // The operator may read their own sample but not score it.
    const own = await t.app.inject({ url: `/v1/qa/samples/${one!.id}`, headers: alice.headers });
    expect(own.statusCode).toBe(200);
    expect(own.json().can_review).toBe(false);
    const self = await t.app.inject({
      method: 'POST',
      url: `/v1/qa/samples/${one!.id}/review`,
      headers: alice.headers,
      payload: { scores: {}, comment: '' },
    });
    expect(self.statusCode).toBe(403);

    // The figures, read on a clock moved to NOW: the reviewed week, the operator, each criterion.
    taskClock.setOffset(NOW.getTime() - Date.now());
    try {
      const stats = await t.app.inject({
        url: `/v1/qa/stats?space_id=${spaceId}&weeks=2`,
        headers: reviewer.headers,
      });
      expect(stats.statusCode).toBe(200);
      const figures = stats.json();
      expect(figures.weeks).toEqual([
        { week: '2026-11-09', reviews: 2, average: 42.5 },
        { week: '2026-11-16', reviews: 0, average: null },
      ]);
      expect(figures.operators).toEqual([
        { user_id: alice.user.id, name: 'Alice', reviews: 2, average: 42.5 },
      ]);
      expect(figures.criteria.map((c: { name: string; average: number }) => [c.name, c.average])).toEqual([
        ['Greeting', 100],
        ['No personal data', 50],
        ['Tone', 87.5],
      ]);
    } finally {
      taskClock.setOffset(0);
    }
  });

  it('a user without qa gets 403; another space gets 404; group limits hide other accounts', async () => {
    const { admin, spaceId, object, reviewer, alice } = await scene();
    await replies(object, alice.user.id, 1, LAST_WEEK);
    const card = await createCard(admin.headers, {
      space_id: spaceId,
      name: 'Main',
      criteria,
      random_percent: 100,
    });
    await sampleSpace(db(), spaceId, { now: NOW });
    const [sample] = await samplesOf(card.id);

    // A plain operator: no queue, no scorecards, no review.
    expect((await t.app.inject({ url: '/v1/qa/samples', headers: alice.headers })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ url: `/v1/qa/scorecards?space_id=${spaceId}`, headers: alice.headers }))
        .statusCode,
    ).toBe(403);
    const bob = await buildMember(t, spaceId, 'operator', { name: 'Bob' });
    expect(
      (await t.app.inject({ url: `/v1/qa/samples/${sample!.id}`, headers: bob.headers })).statusCode,
    ).toBe(403);
    const post = await t.app.inject({
      method: 'POST',
      url: `/v1/qa/samples/${sample!.id}/review`,
      headers: bob.headers,
      payload: { scores: {}, comment: '' },
    });
    expect(post.statusCode).toBe(403);

    // A reviewer of another space sees nothing of this one.
    const elsewhere = await buildAdmin(t, ON);
    expect(
      (await t.app.inject({ url: `/v1/qa/samples/${sample!.id}`, headers: elsewhere.headers })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ url: `/v1/qa/scorecards/${card.id}`, headers: elsewhere.headers })).statusCode,
    ).toBe(404);
    const theirs = (await t.app.inject({ url: '/v1/qa/samples', headers: elsewhere.headers })).json();
    expect(theirs.items).toEqual([]);

    // A reviewer limited to another account does not see the sample.
    const group = await import('../authors/test-helpers').then((m) =>
      m.buildUserGroup(t, spaceId, [999_999]),
    );
    const limited = await buildMember(
      t,
      spaceId,
      { ...presetFor('operator'), qa: true },
      { groupId: group.id },
    );
    expect((await t.app.inject({ url: '/v1/qa/samples', headers: limited.headers })).json().items).toEqual(
      [],
    );
    expect(
      (await t.app.inject({ url: `/v1/qa/samples/${sample!.id}`, headers: limited.headers })).statusCode,
    ).toBe(404);
    // The reviewer in scope sees it.
    const all = (await t.app.inject({ url: '/v1/qa/samples', headers: reviewer.headers })).json();
    expect(all.items.map((s: { id: number }) => s.id)).toEqual([sample!.id]);
  });
});
