import type { SetMyStatusWire } from '@otklik/shared';

import { api } from './instance';
import { useKeptMutation } from './invalidating';
import type { MyStatus, MyWorkingHours } from './types';

// The signed-in user's status and schedule (docs/product/states.md, api.md).

/** GET /v1/me/status?auto_update=1: the server applies a due schedule slot first. */
export const fetchMyStatus = (spaceId: number) =>
  api.get<MyStatus>('/v1/me/status', { query: { auto_update: 1, space_id: spaceId }, forbiddenPage: false });

/** PUT /v1/me/status; the server confirms and broadcasts over the socket. */
export function useSetMyStatus() {
  return useKeptMutation({
    mutationFn: (body: { status: number; space_id: number }) =>
      api.put<SetMyStatusWire>('/v1/me/status', body, { forbiddenPage: false }),
  });
}

/** GET /v1/me/workinghours?space_id: from a day ago to 14 days ahead. */
export const fetchMyWorkingHours = (spaceId: number) =>
  api.get<MyWorkingHours>('/v1/me/workinghours', { query: { space_id: spaceId }, forbiddenPage: false });
