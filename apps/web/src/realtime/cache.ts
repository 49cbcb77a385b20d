import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { inboxKeys } from '../api/inboxCache';
import { queryKeys } from '../api/keys';
import type { SocketMessage } from './socket';

// Which cached data a socket message makes stale (ARCHITECTURE "Realtime": open screens update live).
// Screens that keep their own lists (items, chats) subscribe to the messages themselves.
const INVALIDATES: Record<string, readonly QueryKey[]> = {
  'memberships.changed': [queryKeys.config, queryKeys.me, queryKeys.objects, queryKeys.users],
  'user_statuses.changed': [queryKeys.config, queryKeys.userStatuses],
  'users.changed': [queryKeys.users],
  'usergroups.changed': [queryKeys.userGroups, queryKeys.objects],
  'departments.changed': [queryKeys.departments, queryKeys.objects],
  'companies.changed': [queryKeys.companies, queryKeys.objects],
  'objects.created': [queryKeys.objects, queryKeys.accountErrors],
  'objects.updated': [queryKeys.objects, queryKeys.accountErrors],
  'objects.deleted': [queryKeys.objects, queryKeys.accountErrors],
  'workinghours.changed': [queryKeys.myWorkingHours, queryKeys.schedule],
  'items.created': [queryKeys.counts],
  'items.updated': [queryKeys.counts],
  'messages.created': [queryKeys.counts],
  'messages.updated': [queryKeys.counts],
  // Only the user's own sockets hear it: someone mentioned them in a note, or they saw it (issue 13).
  'mentions.changed': [queryKeys.counts, ['mentions']],
  // Tasks (issue 16): lists, task pages, the linked tasks of a record and the top-bar counters.
  'issues.changed': [queryKeys.counts, ['issues']],
  // Issue 18: the user's own notifications changed (a new one, read in another tab): the bell reloads.
  'notifications.changed': [['notifications']],
  // Issue 21: a review saved; a reply held for approval, decided or withdrawn, a member marked for approval.
  'qa.changed': [['qa']],
  'qa.approvals': [['qa']],
  // Issue 21: mentions landed or were read, a query changed: the monitoring page and its badge reload.
  monitoring: [queryKeys.counts, ['monitoring']],
  // YouScan mentions imported or read, a topic changed (issue 21).
  youscan: [queryKeys.counts, ['youscan']],
};

// The live wall (stats/live) follows the queue and people's statuses, but a busy space sends many messages
// a second: those keys are invalidated at most once per LIVE_THROTTLE_MS (the first at once, the rest
// folded into one trailing refresh). Only a mounted wall refetches; elsewhere the key is just marked stale.
export const LIVE_THROTTLE_MS = 5000;
const LIVE_EVENTS = [
  'items.created',
  'items.updated',
  'items.removed',
  'chats.updated',
  'messages.created',
  'messages.removed',
  'user_status',
  'memberships.changed',
  'user_statuses.changed',
];
const THROTTLED: Record<string, readonly QueryKey[]> = Object.fromEntries(
  LIVE_EVENTS.map((type) => [type, [queryKeys.statsLive]]),
);

export function invalidationsFor(type: string): readonly QueryKey[] {
  return INVALIDATES[type] ?? [];
}

export function throttledInvalidationsFor(type: string): readonly QueryKey[] {
  return THROTTLED[type] ?? [];
}

const throttles = new WeakMap<
  QueryClient,
  Map<string, { last: number; timer: ReturnType<typeof setTimeout> | null }>
>();

function throttledInvalidate(queryClient: QueryClient, queryKey: QueryKey) {
  const perClient = throttles.get(queryClient) ?? new Map();
  throttles.set(queryClient, perClient);
  const id = JSON.stringify(queryKey);
  const state = perClient.get(id) ?? { last: -Infinity, timer: null };
  perClient.set(id, state);
  if (state.timer !== null) return; // a trailing refresh is already due
  const run = () => {
    state.timer = null;
    state.last = Date.now();
    void queryClient.invalidateQueries({ queryKey });
  };
  const wait = state.last + LIVE_THROTTLE_MS - Date.now();
  if (wait <= 0) run();
  else state.timer = setTimeout(run, wait);
}

export function applyToCache(queryClient: QueryClient, message: SocketMessage) {
  for (const queryKey of invalidationsFor(message.type)) {
    void queryClient.invalidateQueries({ queryKey });
  }
  for (const queryKey of throttledInvalidationsFor(message.type)) throttledInvalidate(queryClient, queryKey);
}

// What the socket keeps live. A change committed before the server said `hello` to this page (the page read
// its data while the socket was still connecting, or the connection dropped for a while) came with no
// message, so when the socket opens these are read again — the inbox lists and open records included, not
// only the counters.
const CATCH_UP: readonly QueryKey[] = [
  queryKeys.counts,
  ['notifications'],
  inboxKeys.all,
  ['issues'],
  ['mentions'],
  ['monitoring'],
  ['youscan'],
  ['qa'],
  queryKeys.statsLive,
  queryKeys.histories,
];

/**
 * Called when the socket opens at `openedAt`: every cached query under CATCH_UP that was read before then,
 * or is being read now (its request may have been answered before the server added the connection), is
 * made stale; the ones on screen load again at once, the others when next shown. A first read still on its
 * way is dropped for a new request (react-query would otherwise hand its answer on as the fresh one). Data
 * read after the open is left alone.
 */
export function catchUp(queryClient: QueryClient, openedAt: number) {
  const readBefore = ({ state }: Query) =>
    state.fetchStatus === 'fetching' || (state.dataUpdatedAt > 0 && state.dataUpdatedAt < openedAt);
  for (const queryKey of CATCH_UP) {
    for (const query of queryClient.getQueryCache().findAll({ queryKey, predicate: readBefore })) {
      if (query.state.fetchStatus === 'fetching' && query.state.data === undefined && query.isActive())
        void query.cancel({ silent: true });
    }
    void queryClient.invalidateQueries({ queryKey, predicate: readBefore });
  }
}
