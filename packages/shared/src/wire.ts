import { z } from 'zod';

// Answer shapes every module uses (issue 12, point 4: the wire contract): the plain "ok" of a change, a
// list, and the two kinds of page the API reads with a cursor.

/** The answer of a change that returns nothing else. */
export const okWireSchema = z.object({ message: z.literal('ok') });
/** The same in the modules that answer `{ ok: true }` (API tokens, webhooks, integrations, monitoring). */
export const okTrueWireSchema = z.object({ ok: z.literal(true) });

/** `{ items: [...] }`: a whole list (settings records of the caller's spaces). */
export const listWireSchema = <T extends z.ZodType>(row: T) => z.object({ items: z.array(row) });

/** A page read with an opaque cursor: `next` is the following page's, null at the end. */
export const pageWireSchema = <T extends z.ZodType>(row: T) =>
  z.object({ items: z.array(row), next: z.string().nullable() });
export interface PageWire<T> {
  items: T[];
  next: string | null;
}

/** A page read backwards by id: `next_before` is the id to read before, null at the end. */
export const beforePageWireSchema = <T extends z.ZodType>(row: T) =>
  z.object({ items: z.array(row), next_before: z.number().int().nullable() });
export interface BeforePageWire<T> {
  items: T[];
  next_before: number | null;
}

/**
 * A value stored as jsonb and answered as the database gives it back, for a field whose shape is a
 * request body's schema (a bot's steps, a rule's conditions and actions): checked against `schema`, but
 * sent unchanged, because re-encoding through it would reorder the keys PostgreSQL sorted (by length,
 * then bytes) and change the answer's bytes. Documented by `description` (the shape is the body's).
 */
export const storedJsonWireSchema = <T extends z.ZodType>(schema: T, description: string) =>
  z.custom<z.output<T>>((value) => schema.safeParse(value).success).meta({ description });
