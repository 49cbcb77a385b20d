import {
  can,
  EXPORT_TAB_ABILITIES,
  type ExportTab,
  type Locale,
  type StatsExploreDimension,
  type StatsQuery,
} from '@otklik/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { departments, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { botStats } from '../bots/service';
import { csiStatsOf } from '../csi/scope';
import { issueStats } from '../issues/stats';
import { ruleStats } from '../rules/stats';
import type { ServerActor } from '../spaces/actor';
import { exploreOf } from './explore';
import {
  closedSheets,
  emotionSheets,
  hoursSheets,
  overallSheets,
  personSheets,
  postsSheets,
  repliesSheets,
  type Sheet,
  statusesSheets,
  tagsSheets,
  timeSheets,
  usersSheets,
  userstimeSheets,
  workinghoursSheets,
} from './report-book';
import {
  analyticsSheets,
  botsSheets,
  csiSheets,
  dashboardSheets,
  type IssueTab,
  issuesSheets,
  liveSheets,
  rulesSheets,
} from './report-book-features';
import * as figures from './service';

// Every tab a scheduled report or a background tab export writes (docs/statistics.md "Exports",
// "Scheduled reports"), declared once: how its answer is computed — the very function its endpoint
// answers with, so with the caller's rights and scope — and the sheets built from that answer. A new
// exportable tab is one line here plus its sheet builder (report-book.ts); nothing else is copied.

/** A tab's query: the stats frame's, plus the split of `analytics` (day when left out). */
export type TabQuery = StatsQuery & { by?: StatsExploreDimension };

/** The member a one-member tab (`user`, `user_statuses`, `user_workinghours`) is about; null otherwise. */
type Compute<T> = (db: Db, actor: ServerActor, q: TabQuery, now: Date, userId: number | null) => Promise<T>;

interface TabBook<T> {
  compute: Compute<T>;
  sheets: (locale: Locale, data: T) => Sheet[];
}

const book = <T>(compute: Compute<T>, sheets: (locale: Locale, data: T) => Sheet[]): TabBook<T> => ({
  compute,
  sheets,
});

/** stats/issues' answer with the names the screen shows for its assignees and departments. */
async function issuesOf(db: Db, actor: ServerActor, q: StatsQuery, now: Date): Promise<IssueTab> {
  const answer = await issueStats(db, actor, q, now);
  const ids = (list: Array<number | null>) => [...new Set(list.filter((id): id is number => id !== null))];
  const userIds = ids(answer.by_assignee.map((r) => r.user_id));
  const departmentIds = ids(answer.by_department.map((r) => r.department_id));
  const named = (rows: Array<{ id: number; name: string }>) =>
    Object.fromEntries(rows.map((r) => [String(r.id), r.name]));
  return {
    ...answer,
    names: {
      users: userIds.length
        ? named(
            await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, userIds)),
          )
        : {},
      departments: departmentIds.length
        ? named(
            await db
              .select({ id: departments.id, name: departments.name })
              .from(departments)
              .where(and(eq(departments.spaceId, q.space_id), inArray(departments.id, departmentIds))),
          )
        : {},
    },
  };
}

/** The member of a one-member tab: the export input requires it (EXPORT_USER_TABS). */
const member = (userId: number | null) => {
  if (userId === null) throw new Error('a one-member tab without its member');
  return userId;
};

export const TAB_BOOKS = {
  overall: book(
    async (db, actor, q, now) => ({
      overview: await figures.overview(db, actor, q, now),
      volume: await figures.volumeOf(db, actor, q, now),
    }),
    overallSheets,
  ),
  replies: book(figures.overview, repliesSheets),
  users: book(figures.operatorsOf, usersSheets),
  closed: book(figures.closedOf, closedSheets),
  time: book(figures.timeOf, timeSheets),
  userstime: book(figures.operatorTimesOf, userstimeSheets),
  tags: book(figures.tagsOf, tagsSheets),
  posts: book(figures.postsStats, postsSheets),
  hours: book(figures.hoursOf, hoursSheets),
  statuses: book(figures.statusesOf, statusesSheets),
  workinghours: book(figures.workinghoursOf, workinghoursSheets),
  emotions: book(figures.emotionsOf, emotionSheets),
  my: book(figures.myStats, personSheets),
  my_statuses: book(figures.myStatuses, statusesSheets),
  user: book((db, actor, q, now, id) => figures.userStats(db, actor, q, now, member(id)), personSheets),
  user_statuses: book(
    (db, actor, q, now, id) => figures.userStatusesOf(db, actor, q, now, member(id)),
    statusesSheets,
  ),
  user_workinghours: book(
    (db, actor, q, now, id) => figures.userWorkinghoursOf(db, actor, q, now, member(id)),
    workinghoursSheets,
  ),
  dashboard: book(figures.dashboardOf, dashboardSheets),
  live: book(figures.liveOf, liveSheets),
  analytics: book(
    (db, actor, q, now) => exploreOf(db, actor, { ...q, by: q.by ?? 'day' }, now),
    analyticsSheets,
  ),
  rules: book(ruleStats, rulesSheets),
  bots: book(botStats, botsSheets),
  csi: book(csiStatsOf, csiSheets),
  issues: book(issuesOf, issuesSheets),
} satisfies { [K in ExportTab]: unknown };

/** What was computed, per tab (only the chosen ones are present). */
export type TabData = {
  [K in ExportTab]?: Awaited<ReturnType<(typeof TAB_BOOKS)[K]['compute']>>;
};

/** Each chosen tab's answer, computed with `actor`'s rights (`userId`: the member of a one-member tab). */
export async function computeData(
  actor: ServerActor,
  db: Db,
  q: TabQuery,
  tabs: readonly ExportTab[],
  now: Date,
  userId: number | null = null,
): Promise<TabData> {
  const data: Partial<Record<ExportTab, unknown>> = {};
  for (const tab of tabs) data[tab] = await TAB_BOOKS[tab].compute(db, actor, q, now, userId);
  return data as TabData;
}

/** The sheets of the chosen tabs, in their order, from what computeData answered. */
export function tabSheets(locale: Locale, tabs: readonly ExportTab[], data: TabData): Sheet[] {
  return tabs.flatMap((tab) => {
    const answer = data[tab];
    if (answer === undefined) return [];
    return (TAB_BOOKS[tab] as TabBook<unknown>).sheets(locale, answer);
  });
}

/** 403 up front when the tab's endpoint asks a right of its own (EXPORT_TAB_ABILITIES) the actor lacks. */
export function assertTabAbility(actor: ServerActor, tab: ExportTab, spaceId: number) {
  const ability = EXPORT_TAB_ABILITIES[tab];
  if (ability && !can(actor, ability, spaceId)) throw new AppError(403, 'error.noAccess');
}
