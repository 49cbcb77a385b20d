import { accountSettingsSchema, PROVIDER_IDS } from '@otklik/shared';
import { z } from 'zod';

// Request bodies of Settings → accounts (docs/product/screens-and-routes.md settings/accounts, add, {id}, {id}/exclude, …).

const name = z.string().trim().min(1, 'field.required').max(200, 'field.tooLong');

export const idParams = z.object({ id: z.coerce.number().int().positive() });

export const connectAccountBody = z.object({
  provider: z.enum(PROVIDER_IDS),
  name: name.optional().describe("Defaults to the network's name"),
  space_id: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Needed when the caller administers several spaces'),
  company_id: z.number().int().positive().nullish(),
  credentials: z
    .record(z.string().max(64), z.string().max(4096))
    .optional()
    .describe('What the network needs to connect (bot token, keys): see CONNECT_FIELDS in packages/shared'),
});

export const reconnectAccountBody = z.object({
  credentials: z.record(z.string().max(64), z.string().max(4096)),
});

const exclusion = accountSettingsSchema.shape.exclude.unwrap();

/** Only the settings a client sends change; each must be one the provider offers (catalogue `settings`). */
export const accountSettingsPatch = z.strictObject({
  exclude: exclusion.optional(),
  exclude_messages: exclusion.optional(),
  chats: z.boolean().optional(),
  stickers: z.boolean().optional(),
  reactions: z.boolean().optional(),
});
export type AccountSettingsPatch = z.infer<typeof accountSettingsPatch>;

export const updateAccountBody = z.object({
  name: name.optional(),
  company_id: z.number().int().positive().nullable().optional(),
  settings: accountSettingsPatch.optional(),
});
export type UpdateAccountInput = z.infer<typeof updateAccountBody>;
