import type { QueryClient, QueryKey } from '@tanstack/react-query';
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
};

export function invalidationsFor(type: string): readonly QueryKey[] {
  return INVALIDATES[type] ?? [];
}

export function applyToCache(queryClient: QueryClient, message: SocketMessage) {
  for (const queryKey of invalidationsFor(message.type)) {
    void queryClient.invalidateQueries({ queryKey });
  }
}
