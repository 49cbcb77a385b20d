import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { companies, items, objects } from '../../db/schema';
import { buildObject } from '../authors/test-helpers';
import { factsOf } from '../rules/engine';
import { loadBusinessCalendar } from './business-hours';
import { buildOperator, buildScheduleAdmin, recordBus } from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const inject = (opts: InjectOptions) => t.app.inject(opts);
const office = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: 540, end: 1080 }));

async function companyOf(spaceId: number, name: string) {
  const [row] = await t.deps.database.db.insert(companies).values({ spaceId, name }).returning();
  return row!;
}

describe('business hours (settings/workinghours)', () => {
  it('an administrator sets, reads, overrides per company and removes them; members read them', async () => {
    const admin = await buildScheduleAdmin(t, { timezone: 'Europe/Berlin' });
    const operator = await buildOperator(t, admin.space.id);
    const bus = recordBus(t);
    try {
      const empty = await inject({
        url: `/v1/workinghours/business?space_id=${admin.space.id}`,
        headers: admin.headers,
      });
      expect(empty.json()).toEqual({
        space_id: admin.space.id,
        timezone: 'Europe/Berlin',
        schedule: null,
        companies: [],
      });

      const saved = await inject({
        method: 'PUT',
        url: '/v1/workinghours/business',
        headers: admin.headers,
        payload: {
          space_id: admin.space.id,
          // Out of order on purpose: stored sorted.
          week: [...office].reverse(),
          special_days: [{ day: '2026-12-26', intervals: [{ start: 600, end: 840 }] }],
        },
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toEqual({
        space_id: admin.space.id,
        timezone: 'Europe/Berlin',
        schedule: {
          week: office,
          special_days: [{ day: '2026-12-26', intervals: [{ start: 600, end: 840 }] }],
          updated_at: expect.any(Number),
        },
        companies: [],
      });
      await bus.waitFor((e) => e.type === 'workinghours.changed' && e.spaceId === admin.space.id);

      // Saving again replaces (one row per space).
      const night = [{ weekday: 6, start: 1320, end: 1800 }];
      await inject({
        method: 'PUT',
        url: '/v1/workinghours/business',
        headers: admin.headers,
        payload: { space_id: admin.space.id, week: [...office, ...night], special_days: [] },
      });
      const company = await companyOf(admin.space.id, 'Brand');
      const override = await inject({
        method: 'PUT',
        url: '/v1/workinghours/business',
        headers: admin.headers,
        payload: { space_id: admin.space.id, company_id: company.id, week: night, special_days: [] },
      });
      expect(override.statusCode).toBe(200);
      const read = await inject({
        url: `/v1/workinghours/business?space_id=${admin.space.id}`,
        headers: operator.headers,
      });
      expect(read.statusCode).toBe(200);
      expect(read.json().schedule.week).toEqual([...office, ...night]);
      expect(read.json().companies).toEqual([
        { company_id: company.id, week: night, special_days: [], updated_at: expect.any(Number) },
      ]);

      // The calendar statistics use: the company's own hours, else the space's; holidays of the space.
      await inject({
        method: 'POST',
        url: '/v1/workinghours/holidays',
        headers: admin.headers,
        payload: { space_id: admin.space.id, day: '2026-12-25', name: 'Christmas' },
      });
      const calendar = await loadBusinessCalendar(t.deps.database.db, admin.space.id, 'Europe/Berlin');
      expect(calendar.forCompany(null)).toMatchObject({
        timezone: 'Europe/Berlin',
        week: [...office, ...night],
        holidays: ['2026-12-25'],
      });
      expect(calendar.forCompany(company.id)?.week).toEqual(night);
      expect(calendar.forCompany(company.id + 1000)?.week).toEqual([...office, ...night]);

      // Operators may not change them.
      const denied = await inject({
        method: 'PUT',
        url: '/v1/workinghours/business',
        headers: operator.headers,
        payload: { space_id: admin.space.id, week: [], special_days: [] },
      });
      expect(denied.statusCode).toBe(403);

      const removed = await inject({
        method: 'DELETE',
        url: `/v1/workinghours/business?space_id=${admin.space.id}&company_id=${company.id}`,
        headers: admin.headers,
      });
      expect(removed.json().companies).toEqual([]);
      expect(removed.json().schedule.week).toEqual([...office, ...night]);
      const none = await inject({
        method: 'DELETE',
        url: `/v1/workinghours/business?space_id=${admin.space.id}`,
        headers: admin.headers,
      });
      expect(none.json().schedule).toBeNull();
      expect(
        (await loadBusinessCalendar(t.deps.database.db, admin.space.id, 'Europe/Berlin')).forCompany(null),
      ).toBeNull();
    } finally {
      bus.stop();
    }
  });

  it('answers bad input with a message in the caller’s language', async () => {
    const admin = await buildScheduleAdmin(t);
    const put = (payload: Record<string, unknown>, lang: string) =>
      inject({
        method: 'PUT',
        // The locale parameter wins over the user's own (Russian) locale.
        url: `/v1/workinghours/business?locale=${lang}`,
        headers: admin.headers,
        payload: { space_id: admin.space.id, week: [], special_days: [], ...payload },
      });

    const backwards = await put({ week: [{ weekday: 1, start: 600, end: 540 }] }, 'ru');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toMatchObject({
      error: 'Окончание должно быть позже начала',
      fields: { 'week.0.end': 'Окончание должно быть позже начала' },
    });
    const backwardsEn = await put({ week: [{ weekday: 1, start: 600, end: 540 }] }, 'en');
    expect(backwardsEn.json().error).toBe('The end must be later than the start');

    const overlap = [
      { weekday: 2, start: 540, end: 780 },
      { weekday: 2, start: 720, end: 1080 },
    ];
    expect((await put({ week: overlap }, 'ru')).json().error).toBe('Интервалы одного дня пересекаются');
    expect((await put({ week: overlap }, 'en')).json().error).toBe('Intervals of one day overlap');

    const long = await put({ week: [{ weekday: 3, start: 60, end: 1600 }] }, 'en');
    expect(long.json().error).toBe('An interval cannot be longer than 24 hours');

    const twice = [
      { day: '2026-01-10', intervals: [{ start: 600, end: 700 }] },
      { day: '2026-01-10', intervals: [{ start: 800, end: 900 }] },
    ];
    expect((await put({ special_days: twice }, 'ru')).json().error).toBe('Этот день уже есть в списке');
    expect((await put({ special_days: twice }, 'en')).json().error).toBe('This day is already in the list');
    const emptyDay = [{ day: '2026-01-10', intervals: [] }];
    expect((await put({ special_days: emptyDay }, 'en')).json().error).toBe(
      'Set the working hours of this day',
    );
    const badDay = await put(
      { special_days: [{ day: '2026-02-30', intervals: [{ start: 1, end: 2 }] }] },
      'en',
    );
    expect(badDay.json()).toMatchObject({ fields: { 'special_days.0.day': 'Invalid value' } });

    // A company of another space is refused.
    const other = await buildScheduleAdmin(t);
    const foreign = await companyOf(other.space.id, 'Theirs');
    const wrongCompany = await put({ company_id: foreign.id }, 'en');
    expect(wrongCompany.statusCode).toBe(400);
    expect(wrongCompany.json()).toMatchObject({
      error: 'No such company in this space',
      fields: { company_id: 'No such company in this space' },
    });
    expect((await put({ company_id: foreign.id }, 'ru')).json().error).toBe(
      'Компания не найдена в этом пространстве',
    );
  });

  it('keeps spaces apart', async () => {
    const a = await buildScheduleAdmin(t);
    const b = await buildScheduleAdmin(t);
    const put = await inject({
      method: 'PUT',
      url: '/v1/workinghours/business',
      headers: a.headers,
      payload: { space_id: a.space.id, week: office, special_days: [] },
    });
    expect(put.statusCode).toBe(200);
    const theirs = await inject({
      url: `/v1/workinghours/business?space_id=${b.space.id}`,
      headers: b.headers,
    });
    expect(theirs.json().schedule).toBeNull();
    // Not a member: neither read nor write nor delete.
    expect(
      (await inject({ url: `/v1/workinghours/business?space_id=${a.space.id}`, headers: b.headers }))
        .statusCode,
    ).toBe(403);
    const write = await inject({
      method: 'PUT',
      url: '/v1/workinghours/business',
      headers: b.headers,
      payload: { space_id: a.space.id, week: [], special_days: [] },
    });
    expect(write.statusCode).toBe(403);
    const del = await inject({
      method: 'DELETE',
      url: `/v1/workinghours/business?space_id=${a.space.id}`,
      headers: b.headers,
    });
    expect(del.statusCode).toBe(403);
    const still = await inject({
      url: `/v1/workinghours/business?space_id=${a.space.id}`,
      headers: a.headers,
    });
    expect(still.json().schedule.week).toEqual(office);
  });
});

describe('the rules condition "arrived within business hours"', () => {
  it('reads the schedule of the item’s company, else the space’s, in the space’s time zone', async () => {
    const admin = await buildScheduleAdmin(t); // Europe/Moscow, UTC+3
    const db = t.deps.database.db;
    await inject({
      method: 'PUT',
      url: '/v1/workinghours/business',
      headers: admin.headers,
      payload: { space_id: admin.space.id, week: office, special_days: [] },
    });
    const account = await buildObject(t, admin.space.id, { provider: 'sandbox' });
    let n = 0;
    const item = async (iso: string) => {
      n += 1;
      const [row] = await db
        .insert(items)
        .values({
          spaceId: admin.space.id,
          objectId: account.id,
          kind: 'comment',
          externalId: `bh-${n}`,
          createdAt: new Date(iso),
        })
        .returning();
      return row!;
    };
    // Monday 12 Jan 2026: 10:00 MSK is 07:00 UTC, 19:00 MSK is 16:00 UTC; Saturday 17 Jan 12:00 MSK.
    const monday = await item('2026-01-12T07:00:00Z');
    const evening = await item('2026-01-12T16:00:00Z');
    const saturday = await item('2026-01-17T09:00:00Z');
    expect((await factsOf(db, monday)).withinBusinessHours).toBe(true);
    expect((await factsOf(db, evening)).withinBusinessHours).toBe(false);
    expect((await factsOf(db, saturday)).withinBusinessHours).toBe(false);

    // The account's company works Saturdays only.
    const company = await companyOf(admin.space.id, 'Weekend shop');
    await db.update(objects).set({ companyId: company.id }).where(eq(objects.id, account.id));
    await inject({
      method: 'PUT',
      url: '/v1/workinghours/business',
      headers: admin.headers,
      payload: {
        space_id: admin.space.id,
        company_id: company.id,
        week: [{ weekday: 6, start: 600, end: 1080 }],
        special_days: [],
      },
    });
    expect((await factsOf(db, saturday)).withinBusinessHours).toBe(true);
    expect((await factsOf(db, monday)).withinBusinessHours).toBe(false);
  });
});
