import type { ExportTab, Locale, StatsQuery } from '@otklik/shared';
import type { Db } from '../../db/client';
import type { ServerActor } from '../spaces/actor';
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
  closedOf,
  emotionsOf,
  hoursOf,
  myStats,
  myStatuses,
  operatorsOf,
  operatorTimesOf,
  overview,
  postsStats,
  statusesOf,
  tagsOf,
  timeOf,
  userStats,
  userStatusesOf,
  userWorkinghoursOf,
  volumeOf,
  workinghoursOf,
} from './service';

// Every tab a scheduled report or a background tab export writes (docs/statistics.md "Exports",
// "Scheduled reports"), declared once: how its answer is computed — the very function its endpoint
// answers with, so with the caller's rights and scope — and the sheets built from that answer. A new
// exportable tab is one line here plus its sheet builder (report-book.ts); nothing else is copied.

/** The member a one-member tab (`user`, `user_statuses`, `user_workinghours`) is about; null otherwise. */
type Compute<T> = (db: Db, actor: ServerActor, q: StatsQuery, now: Date, userId: number | null) => Promise<T>;

interface TabBook<T> {
  compute: Compute<T>;
  sheets: (locale: Locale, data: T) => Sheet[];
}

const book = <T>(compute: Compute<T>, sheets: (locale: Locale, data: T) => Sheet[]): TabBook<T> => ({
  compute,
  sheets,
});

/** The member of a one-member tab: the export input requires it (EXPORT_USER_TABS). */
const member = (userId: number | null) => {
  if (userId === null) throw new Error('a one-member tab without its member');
  return userId;
};

export const TAB_BOOKS = {
  overall: book(
    async (db, actor, q, now) => ({
      overview: await overview(db, actor, q, now),
      volume: await volumeOf(db, actor, q, now),
    }),
    overallSheets,
  ),
  replies: book(overview, repliesSheets),
  users: book(operatorsOf, usersSheets),
  closed: book(closedOf, closedSheets),
  time: book(timeOf, timeSheets),
  userstime: book(operatorTimesOf, userstimeSheets),
  tags: book(tagsOf, tagsSheets),
  posts: book(postsStats, postsSheets),
  hours: book(hoursOf, hoursSheets),
  statuses: book(statusesOf, statusesSheets),
  workinghours: book(workinghoursOf, workinghoursSheets),
  emotions: book(emotionsOf, emotionSheets),
  my: book(myStats, personSheets),
  my_statuses: book(myStatuses, statusesSheets),
  user: book((db, actor, q, now, id) => userStats(db, actor, q, now, member(id)), personSheets),
  user_statuses: book(
    (db, actor, q, now, id) => userStatusesOf(db, actor, q, now, member(id)),
    statusesSheets,
  ),
  user_workinghours: book(
    (db, actor, q, now, id) => userWorkinghoursOf(db, actor, q, now, member(id)),
    workinghoursSheets,
  ),
} satisfies { [K in ExportTab]: unknown };

/** What was computed, per tab (only the chosen ones are present). */
export type TabData = {
  [K in ExportTab]?: Awaited<ReturnType<(typeof TAB_BOOKS)[K]['compute']>>;
};

/** Each chosen tab's answer, computed with `actor`'s rights (`userId`: the member of a one-member tab). */
export async function computeData(
  actor: ServerActor,
  db: Db,
  q: StatsQuery,
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
