import { z } from 'zod';

// The switchable space feature flags of docs/product/entities.md (Space.settings). A tariff lists which of them an
// administrator may switch on (tariffs.features); switching off is always allowed. `monitoring_count`
// is a number, not a flag, and is set by the instance operator only.

export const SPACE_FLAGS = [
  'otp_required',
  'labels',
  'user_workinghours',
  'templates',
  'macros',
  'issues',
  'subscriptions',
  'reports',
  'analytics',
  'audit',
  'random',
  'bots',
  'ai',
  'csi_menu',
  'qa',
  'youscan',
] as const;

export type SpaceFlag = (typeof SPACE_FLAGS)[number];

export function isSpaceFlag(value: string): value is SpaceFlag {
  return (SPACE_FLAGS as readonly string[]).includes(value);
}

/** A space's name as an administrator types it (create, rename). */
export const spaceNameSchema = z.string().trim().min(1, 'space.name.required').max(100, 'field.tooLong');

export const createSpaceBodySchema = z.object({ name: spaceNameSchema });

export const updateSpaceBodySchema = z
  .object({
    name: spaceNameSchema.optional(),
    /** An IANA time zone (Europe/Moscow): schedules and business-hours statistics use it. */
    timezone: z.string().trim().min(1, 'field.required').max(64, 'field.tooLong').optional(),
  })
  .refine((body) => body.name !== undefined || body.timezone !== undefined, {
    message: 'update.empty',
  });

/** `{ labels: true, macros: false }`: only the flags named change. */
export const spaceFlagsBodySchema = z.object({
  flags: z.partialRecord(z.enum(SPACE_FLAGS), z.boolean()).refine((flags) => Object.keys(flags).length > 0, {
    message: 'update.empty',
  }),
});

/** A tariff as the API shows it (GET /v1/tariffs, the space's details). */
export const tariffWireSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** By currency, then period length in days ("30", "180", "365"). */
  prices: z.record(z.string(), z.record(z.string(), z.number())),
  max_users: z.number().int().nullable(),
  max_accounts: z.number().int().nullable(),
  features: z.array(z.enum(SPACE_FLAGS)),
  is_public: z.boolean(),
});
export type TariffView = z.infer<typeof tariffWireSchema>;

/** GET /v1/spaces/{id}: what the space's administrator manages on Settings → Other. */
export const spaceDetailsWireSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  timezone: z.string(),
  is_trial: z.boolean(),
  /** Unix seconds. */
  expires_at: z.number().int(),
  tariff: tariffWireSchema,
  flags: z.record(z.enum(SPACE_FLAGS), z.boolean()),
  usage: z.object({ users: z.number().int(), accounts: z.number().int() }),
});
export type SpaceDetailsView = z.infer<typeof spaceDetailsWireSchema>;
