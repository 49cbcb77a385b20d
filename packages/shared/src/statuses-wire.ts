import { z } from 'zod';

// A space's user statuses on the wire (Settings → user statuses; GET /v1/config lists the same records):
// what the list, create and update answer. The server's presenter (modules/spaces/presenter.ts
// presentUserStatus) is typed to return it.

/** docs/product/entities.md User status. */
export const userStatusWireSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string(),
  hidden: z.boolean(),
  offline: z.boolean(),
  workinghours: z.boolean(),
  space_id: z.number().int(),
  position: z.number().int(),
});
export type UserStatusWire = z.infer<typeof userStatusWireSchema>;
