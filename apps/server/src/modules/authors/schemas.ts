import { z } from 'zod';
import { colorField, nameField } from '../tags/schemas';

// Query strings and bodies of the author screens (docs/product/screens-and-routes.md author/{id}, {items|chats|issues}/authors) and
// of Settings → labels (docs/product/screens-and-routes.md labels (new, {id}, {id}/authors)).

export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 100;

const positiveId = z.coerce.number().int().positive();

/** Keyset pagination: `before` is the id of the last row of the previous page (`next_before`). */
export const pageQuery = z.object({
  before: positiveId.optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
});

/** Name search; an empty `q` means no search. */
const searchText = z
  .string()
  .trim()
  .max(200, 'field.tooLong')
  .optional()
  .transform((v) => v || undefined);

export const AUTHOR_LIST_SCOPES = ['items', 'chats', 'issues'] as const;
export type AuthorListScope = (typeof AUTHOR_LIST_SCOPES)[number];

export const authorListQuery = pageQuery.extend({
  scope: z.enum(AUTHOR_LIST_SCOPES).default('items'),
  q: searchText,
  label_id: positiveId.optional(),
  /** 1: only blocked authors, 0: only authors who are not blocked; absent: both. */
  blocked: z.enum(['0', '1']).optional(),
  /** docs/product/screens-and-routes.md: object filtering adds object_id to the current route. */
  object_id: positiveId.optional(),
  space_id: positiveId.optional(),
});

export const labelAuthorsQuery = pageQuery.extend({ q: searchText });

export const idParams = z.object({ id: positiveId });
export const spaceQuery = z.object({ space_id: positiveId.optional() });

export const createLabelBody = z.object({
  space_id: z.number().int().positive(),
  name: nameField,
  color: colorField.optional(),
});
export const updateLabelBody = z.object({ name: nameField.optional(), color: colorField.optional() });

export const authorLabelsBody = z.object({
  label_ids: z.array(z.number().int().positive()).max(100),
});
