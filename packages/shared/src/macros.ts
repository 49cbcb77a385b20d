import { z } from 'zod';
import { BLOCK_DURATIONS } from './constants';

// Macros (issue 16): a named sequence of actions run on one comment or a selection. The schema is shared
// by the settings form and the API; what a run did is reported per item (macros-wire.ts) so nothing is
// half-applied silently. Message keys live in messages.ts (ru/en).

export const MACRO_ACTION_TYPES = [
  'reply_template',
  'tag',
  'untag',
  'assign',
  'set_status',
  'close',
  'snooze',
  'create_task',
  'hide',
  'delete',
  'like',
  'block_author',
] as const;
export type MacroActionType = (typeof MACRO_ACTION_TYPES)[number];

/** Statuses a macro may set (closing and snoozing are their own actions). */
export const MACRO_STATUSES = ['new', 'inprogress', 'waiting', 'open'] as const;

/** Snooze presets and their length in seconds. */
export const MACRO_SNOOZE_PRESETS = {
  '1h': 3600,
  '3h': 10_800,
  '1d': 86_400,
  '3d': 259_200,
  '1w': 604_800,
} as const;
export type MacroSnoozePreset = keyof typeof MACRO_SNOOZE_PRESETS;
const SNOOZE_KEYS = Object.keys(MACRO_SNOOZE_PRESETS) as [MacroSnoozePreset, ...MacroSnoozePreset[]];

export const MACRO_ACTIONS_MAX = 20;
export const MACRO_NAME_MAX = 120;

const id = z.number({ error: 'field.invalid' }).int('field.invalid').positive('field.invalid');
const tagIds = z
  .array(id, { error: 'macros.tags.required' })
  .min(1, 'macros.tags.required')
  .max(50, 'field.tooLong');

export const macroActionSchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('reply_template'),
      template_id: z
        .number({ error: 'macros.template.required' })
        .int('macros.template.required')
        .positive('macros.template.required'),
    }),
    z.object({ type: z.literal('tag'), tag_ids: tagIds }),
    z.object({ type: z.literal('untag'), tag_ids: tagIds }),
    z.object({ type: z.literal('assign'), user_id: id.nullable() }),
    z.object({
      type: z.literal('set_status'),
      status: z.enum(MACRO_STATUSES, { error: 'macros.status.required' }),
    }),
    z.object({ type: z.literal('close') }),
    z.object({ type: z.literal('snooze'), preset: z.enum(SNOOZE_KEYS, { error: 'macros.snooze.required' }) }),
    z.object({
      type: z.literal('create_task'),
      title: z.string().trim().min(1, 'macros.task.title.required').max(200, 'field.tooLong'),
    }),
    z.object({ type: z.literal('hide') }),
    z.object({ type: z.literal('delete') }),
    z.object({ type: z.literal('like') }),
    /** Block the item's author for a while (the network ban where it has one, docs/product/entities.md). */
    z.object({
      type: z.literal('block_author'),
      duration: z.enum(BLOCK_DURATIONS, { error: 'macros.duration.required' }),
    }),
  ],
  { error: 'macros.action.invalid' },
);
export type MacroAction = z.output<typeof macroActionSchema>;
export type MacroActionInput = z.input<typeof macroActionSchema>;

const actionsField = z
  .array(macroActionSchema, { error: 'macros.actions.required' })
  .min(1, 'macros.actions.required')
  .max(MACRO_ACTIONS_MAX, 'macros.actions.tooMany')
  // One reply per run: a second one would answer the customer twice.
  .refine((list) => list.filter((a) => a.type === 'reply_template').length <= 1, 'macros.reply.once');

/** The settings form (create and edit). `personal` makes it the author's own macro. */
export const macroFormSchema = z.object({
  name: z
    .string({ error: 'macros.name.required' })
    .trim()
    .min(1, 'macros.name.required')
    .max(MACRO_NAME_MAX, 'field.tooLong'),
  actions: actionsField,
  personal: z.boolean(),
  /** Keys 1–9 run it on the item page (Alt+digit); null: no key. */
  shortcut: z
    .number({ error: 'macros.shortcut.invalid' })
    .int('macros.shortcut.invalid')
    .min(1, 'macros.shortcut.invalid')
    .max(9, 'macros.shortcut.invalid')
    .nullable(),
  sort_order: z.number().int('field.invalid').min(0, 'field.invalid').max(10_000, 'field.invalid'),
});
export type MacroForm = z.input<typeof macroFormSchema>;

export const createMacroBody = macroFormSchema.extend({ space_id: z.number().int().positive() });
export const updateMacroBody = macroFormSchema.omit({ personal: true }).partial();

/** POST /v1/macros/:id/preview and /run. */
export const runMacroBody = z.object({
  item_ids: z.array(z.number().int().positive()).min(1, 'macros.items.required'),
});

/** Macros matching a query by name, case-insensitively, in their list order. */
export function filterMacros<T extends { name: string; sort_order: number }>(
  list: readonly T[],
  query: string,
): T[] {
  const q = query.trim().toLocaleLowerCase();
  const hits = q ? list.filter((m) => m.name.toLocaleLowerCase().includes(q)) : [...list];
  return hits.sort((a, b) => a.sort_order - b.sort_order || a.name.localeCompare(b.name));
}
