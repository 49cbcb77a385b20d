import { issueMessage, type Locale, type MessageKey, translate } from '@otklik/shared';
import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import { type $ZodIssue, type $ZodType, safeParse } from 'zod/v4/core';

/** One failed field: a message key and its parameters, translated per request by the error handler. */
export interface InputIssue {
  field: string;
  key: MessageKey;
  params?: Record<string, string | number>;
}

/**
 * A request that failed its schema. Carries keys, never the library's English and never the input
 * itself (a rejected password must not reach a log through the error).
 */
export class InputInvalid extends Error {
  readonly statusCode = 400;
  constructor(readonly issues: InputIssue[]) {
    super('Invalid input');
    this.name = 'InputInvalid';
  }

  /** `{ error, error_type, fields }` in the caller's language: the first field's message leads. */
  body(locale: Locale) {
    const fields: Record<string, string> = {};
    for (const issue of this.issues) {
      if (!(issue.field in fields)) fields[issue.field] = translate(locale, issue.key, issue.params);
    }
    const first = Object.values(fields)[0];
    return { error: first ?? translate(locale, 'error.validation'), error_type: 'validation', fields };
  }
}

/** A zod issue as a field + message key: the schema's own key when it gave one, else a generic one. */
export function toInputIssue(issue: $ZodIssue): InputIssue {
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  return { field: path.map(String).join('.') || '_', ...issueMessage(issue) };
}

const changesNothing = (value: unknown) =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => v === undefined);

/**
 * Validation of every route (replaces fastify-type-provider-zod's compiler): failures become
 * `InputInvalid` with message keys. A PUT/PATCH whose object body sets no field at all is refused here,
 * for every update operation at once: an empty update has nothing to write (drizzle's `.set({})` throws).
 */
export const validatorCompiler: FastifySchemaCompiler<$ZodType> = ({ schema, method, httpPart }) => {
  const isUpdate =
    httpPart === 'body' && (method === 'PUT' || method === 'PATCH') && schema._zod.def.type === 'object';
  return (data) => {
    // reportInput tells a missing field (input undefined) from a wrong one; the input is not kept.
    const result = safeParse(schema, data, { reportInput: true });
    if (!result.success) return { error: new InputInvalid(result.error.issues.map(toInputIssue)) };
    if (isUpdate && changesNothing(result.data))
      return { error: new InputInvalid([{ field: '_', key: 'update.empty' }]) };
    return { value: result.data };
  };
};

/** A row's id in a path, query or body: a positive integer in the range of PostgreSQL's `integer`. */
export const rowId = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);

type PatchShape<T extends z.ZodRawShape> = {
  [K in keyof T]: z.ZodOptional<T[K] extends z.ZodDefault<infer Inner> ? Inner : T[K]>;
};

/**
 * The update form of a create schema: every field optional and no defaults. `schema.partial()` keeps
 * the defaults, so an update naming one field would silently reset the others to them.
 */
export function patchOf<T extends z.ZodRawShape>(schema: z.ZodObject<T>): z.ZodObject<PatchShape<T>> {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]) => [
      key,
      (field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : (field as z.ZodType)).optional(),
    ]),
  );
  return z.object(shape) as unknown as z.ZodObject<PatchShape<T>>;
}
