// Query keys of the shell and settings data, in one place: hooks, the socket dispatcher and mutations
// invalidate the same keys.
export const queryKeys = {
  me: ['me'] as const,
  config: ['config'] as const,
  counts: ['counts'] as const,
  objects: ['objects'] as const,
  accountErrors: ['account-errors'] as const,
  myStatus: (spaceId: number) => ['me', 'status', spaceId] as const,
  myWorkingHours: ['me', 'workinghours'] as const,
  users: ['users'] as const,
  userStatuses: ['user-statuses'] as const,
  companies: ['companies'] as const,
  departments: ['departments'] as const,
  userGroups: ['usergroups'] as const,
  schedule: ['workinghours'] as const,
  space: (spaceId: number) => ['spaces', spaceId] as const,
  tariffs: ['tariffs'] as const,
  billing: (spaceId: number) => ['billing', spaceId] as const,
  payment: (id: number) => ['billing', 'payment', id] as const,
  referral: ['referral'] as const,
  /** stats/live, the wall (any query): refreshed by queue and status messages, throttled (realtime/cache.ts). */
  statsLive: ['stats', 'live'] as const,
  /** Every record's history (GET /v1/items|chats/:id/history): kept live by the socket (api/workday.ts). */
  histories: ['history'] as const,
  history: (kind: 'items' | 'chats', id: number) => ['history', kind, id] as const,
};
