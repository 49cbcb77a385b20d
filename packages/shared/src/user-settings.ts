import { z } from 'zod';

// docs/product/entities.md User.settings ("my settings", route `config`): the user's defaults for lists and the
// working-hours warning. All optional; unknown keys are dropped.

const id = z.number().int().positive().nullable();

export const userSettingsSchema = z.object({
  /** Default status id to start the day with. */
  status: id.optional(),
  company_id: id.optional(),
  object_id: id.optional(),
  provider: z.string().max(64).nullable().optional(),
  /** Lists oldest first instead of newest first. */
  reversed: z.boolean().optional(),
  tag_id: id.optional(),
  priority: z.boolean().optional(),
  /** Hide items assigned to other users. */
  hide_other: z.boolean().optional(),
  issues_assigned_to: z
    .union([z.literal('me'), z.literal('all'), z.number().int().positive()])
    .nullable()
    .optional(),
  issues_department_id: id.optional(),
  issues_sort: z.enum(['created_at', 'updated_at', 'deadline']).nullable().optional(),
  /** The reply box's main button: "Send and close" (true) or "Send" keeping it open (issue 13). */
  reply_and_close: z.boolean().optional(),
  /** Seconds before a working-hours slot starts to warn 'Скоро смена статуса' (docs/product/states.md); 0 = off. */
  wh_status_notification: z.number().int().min(0).max(3600).optional(),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;
