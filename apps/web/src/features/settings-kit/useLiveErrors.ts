import { useState } from 'react';
import type { output, ZodType } from 'zod';
import { type FieldErrors, issueErrors, showSaveError } from '../../components/fieldErrors';
import { useMessage } from '../../i18n/useLocale';

// The validation of a hand-built settings form (one with lists inside, where useZodForm's flat fields do
// not fit): checked by the shared schema on save, then again on every change so the messages follow the
// fields as they are corrected; the server's field refusals go next to their fields, the rest as a notice.

/**
 * `values` are the form's current values; `emptyPath` names the field an issue without a path belongs to.
 * `check()` starts a save: the parsed values, or null while the schema refuses them.
 */
export function useLiveErrors<S extends ZodType>(schema: S, values: unknown, emptyPath = '') {
  const message = useMessage();
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const live = submitted ? schema.safeParse(values) : null;
  const schemaErrors = live && !live.success ? issueErrors(live.error.issues, message, emptyPath) : {};
  const errors: FieldErrors = { ...schemaErrors, ...serverErrors };
  const check = (): output<S> | null => {
    const parsed = schema.safeParse(values);
    setSubmitted(true);
    if (!parsed.success) return null;
    setServerErrors({});
    return parsed.data as output<S>;
  };
  const onError = (error: Error) => showSaveError(error, setServerErrors);
  /** Shows the schema's messages without saving (the rule form's dry run refused the values). */
  const showErrors = () => setSubmitted(true);
  return { errors, submitted, check, onError, showErrors };
}
