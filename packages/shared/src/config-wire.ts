import { z } from 'zod';
import { spaceSettingsSchema, tariffSchema } from './access/types';
import { meWireSchema } from './account-wire';
import { userStatusWireSchema } from './statuses-wire';
import { listWireSchema } from './wire';
import { workingHoursItemWireSchema } from './workinghours-wire';

// The app shell's data on the wire (docs/product/entities.md Config, Space, Saved filter): GET /v1/config,
// the saved filters and recent emoji it carries, and the caller's own status and schedule.

const int = z.number().int();
/** Unix seconds. */
const unixSeconds = z.number().int();

/** docs/product/entities.md Space as GET /v1/config shows it, with the caller's roles and status in it. */
export const configSpaceWireSchema = z.object({
  id: int,
  name: z.string(),
  expires_at: unixSeconds,
  is_trial: z.boolean(),
  tariff: tariffSchema,
  /** The feature flags, each read with its default. */
  settings: spaceSettingsSchema,
  /** IANA time zone: schedules are laid out in it. */
  timezone: z.string(),
  /** The caller's role flags in this space, as stored. */
  roles: z.record(z.string(), z.boolean()),
  /** The caller's current user status in this space. */
  status: int.nullable(),
  status_changed_at: unixSeconds.nullable(),
  /** docs/product/states.md: the status poll runs only when the last manual change is older than 600 s. */
  status_manual_at: unixSeconds.nullable(),
});
export type ConfigSpaceWire = z.infer<typeof configSpaceWireSchema>;

/** docs/product/entities.md Saved filter. */
export const savedFilterWireSchema = z.object({
  id: int,
  name: z.string(),
  query: z.record(z.string(), z.unknown()),
  /** The screen it belongs to (route name); null: a statistics filter. */
  route: z.string().nullable(),
});
export type SavedFilterWire = z.infer<typeof savedFilterWireSchema>;

/** The caller's saved filters after a change (POST, PUT and DELETE /v1/me/filters). */
export const savedFiltersWireSchema = listWireSchema(savedFilterWireSchema);
export type SavedFiltersWire = z.infer<typeof savedFiltersWireSchema>;

/** Recently used emoji per provider, most recent first. */
export const recentEmojiWireSchema = z.record(z.string(), z.array(z.object({ char: z.string() })));
export type RecentEmojiWire = z.infer<typeof recentEmojiWireSchema>;

/** PUT /v1/me/emoji. */
export const recentEmojiAnswerWireSchema = z.object({ emoji: recentEmojiWireSchema });

/** docs/product/entities.md Config (GET /v1/config): everything the app shell needs. */
export const configWireSchema = z.object({
  user: meWireSchema,
  spaces: z.array(configSpaceWireSchema),
  user_statuses: z.array(userStatusWireSchema),
  filters: z.array(savedFilterWireSchema),
  emoji: recentEmojiWireSchema,
  /** Badge counters (a counter no module provides is 0). */
  issues_count: int,
  issues_expired_count: int,
  monitoring_count: int,
  items_count: int,
  /** A space requires two-factor and the user has not set it up. */
  otp_required: z.boolean(),
});
export type ConfigWire = z.infer<typeof configWireSchema>;

/** GET /v1/me/status: my status in a space (the first one unless space_id is given). */
export const myStatusWireSchema = z.object({
  status: int.nullable(),
  space_id: int,
  changed_at: unixSeconds.nullable(),
  manual_at: unixSeconds.nullable(),
});
export type MyStatusWire = z.infer<typeof myStatusWireSchema>;

/** PUT /v1/me/status: the status set, and the space it was set in. */
export const setMyStatusWireSchema = z.object({ status: int, space_id: int });
export type SetMyStatusWire = z.infer<typeof setMyStatusWireSchema>;

/**
 * GET /v1/me/workinghours: my schedule from a day ago to 14 days ahead; `updatedAt` is the latest change
 * (unix seconds, 0 when none). The slots are workinghours-wire.ts's working-hours items.
 */
export const myWorkingHoursWireSchema = z.object({
  items: z.array(workingHoursItemWireSchema),
  updatedAt: unixSeconds,
});
export type MyWorkingHoursWire = z.infer<typeof myWorkingHoursWireSchema>;
