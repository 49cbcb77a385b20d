import { z } from 'zod';
import { roleFlagsSchema } from './roles';

// The shapes the access rules read (docs/product/entities.md). They are deliberately the smallest slice of Space, User
// and Object that the rules need, so the server's rows and the web's config both satisfy them.

/** Space ids are compared with ===; the server decides whether they are numbers or strings. */
export const spaceIdSchema = z.union([z.number().int(), z.string().min(1)]);
export type SpaceId = z.infer<typeof spaceIdSchema>;

export const tariffSchema = z.object({ id: z.number().int(), name: z.string() });
export type Tariff = z.infer<typeof tariffSchema>;

const feature = z.boolean().default(false);

/** docs/product/entities.md space settings flags: features enabled for the space (by its tariff or by support). */
export const spaceSettingsSchema = z.object({
  issues: feature,
  /** Number of monitoring topics allowed; 0 = monitoring is off. */
  monitoring_count: z.number().int().nonnegative().default(0),
  analytics: feature,
  youscan: feature,
  reports: feature,
  csi_menu: feature,
  qa: feature,
  user_workinghours: feature,
  otp_required: feature,
  labels: feature,
  templates: feature,
  macros: feature,
  bots: feature,
  ai: feature,
  random: feature,
  audit: feature,
  subscriptions: feature,
  /** Task settings (docs/product/entities.md "issues with assigned_to and statuses"); the spec does not show their shape. */
  issues_assigned_to: z.union([z.number().int(), z.string()]).nullable().optional(),
  issues_statuses: z.array(z.string()).optional(),
});
export type SpaceSettings = z.infer<typeof spaceSettingsSchema>;

export const spaceLikeSchema = z.object({
  id: spaceIdSchema,
  name: z.string().optional(),
  /** Unix seconds. */
  expires_at: z.number().int(),
  is_trial: z.boolean(),
  tariff: tariffSchema,
  settings: spaceSettingsSchema,
});
export type SpaceLike = z.infer<typeof spaceLikeSchema>;
export type SpaceLikeInput = z.input<typeof spaceLikeSchema>;

/** The user's roles in one space. */
export const membershipSchema = z.object({ space: spaceLikeSchema, roles: roleFlagsSchema });
export type Membership = z.infer<typeof membershipSchema>;

export const actorSchema = z.object({
  user: z.object({ is_partner: z.boolean().default(false) }),
  memberships: z.array(membershipSchema),
});
/** Whoever asks: the signed-in user and each space they belong to, with their roles there. */
export type Actor = z.infer<typeof actorSchema>;
export type ActorInput = z.input<typeof actorSchema>;

/** A connected account (docs/product/entities.md "Object"), as far as the menu rules need it. */
export const objectLikeSchema = z.object({
  id: z.union([z.number().int(), z.string()]).optional(),
  provider: z.string(),
});
export type ObjectLike = z.infer<typeof objectLikeSchema>;

/** Parse an actor from untrusted input (e.g. GET v1/config); missing flags become false. */
export function parseActor(input: unknown): Actor {
  return actorSchema.parse(input);
}
