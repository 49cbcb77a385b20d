import { ApiError } from '../api/errors';
import { showError } from './notify';

// The errors of a hand-built form, by field path ('name', 'texts.ru.survey', 'criteria.0.weight'): what
// the shared schema refused before the save, and what the server refused after it.

export type FieldErrors = Record<string, string>;

/**
 * The messages of a refused parse in the user's language (`message`), the first one of each field; an
 * issue without a path goes to `emptyPath`.
 */
export function issueErrors(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
  message: (key: string) => string,
  emptyPath = '',
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues)
    errors[issue.path.map(String).join('.') || emptyPath] ??= message(issue.message);
  return errors;
}

/** A refused save: the server's field refusals go next to their fields (`setErrors`), anything else is a notice. */
export function showSaveError(error: unknown, setErrors: (errors: FieldErrors) => void) {
  if (error instanceof ApiError && Object.keys(error.fields).length > 0) setErrors(error.fields);
  else showError(error);
}

/**
 * The messages of a refused parse by top-level field ('emails' for an issue at 'emails.2'), the last one of
 * each field: the dialogs of scheduled reports and webhooks.
 */
export function topLevelIssueErrors(
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
  message: (key: string) => string,
): FieldErrors {
  return Object.fromEntries(issues.map((issue) => [String(issue.path[0]), message(issue.message)]));
}

/** A refused save shown both ways: the server's field errors next to their fields, and a notice. */
export function showErrorAndFields(error: unknown, setErrors: (errors: FieldErrors) => void) {
  const fields = (error as { fields?: FieldErrors }).fields;
  if (fields) setErrors(fields);
  showError(error);
}
