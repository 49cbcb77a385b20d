import { type FormErrors, useForm } from '@mantine/form';
import { fieldErrors } from '@otklik/shared';
import { useRef } from 'react';
import type { output, ZodType } from 'zod';
import { ApiError } from '../api/client';
import { useMessage } from '../i18n/useLocale';

// Mantine form + a shared zod schema (docs/product/validation.md): validated on submit and on blur. Errors are kept as
// message keys and translated when shown, so switching the language re-translates them; server
// `fields` errors are already translated text and pass through translate() unchanged.
//
// Blur validation runs only for a field the user has changed, and slightly after the blur: an error
// appearing at mousedown would shift the layout under the pointer, and the click on a link or on the
// submit button below would be lost.
const BLUR_VALIDATION_DELAY_MS = 150;

export function useZodForm<S extends ZodType, V extends Record<string, unknown>>(
  schema: S,
  initialValues: V,
) {
  const message = useMessage();
  // Pending blur checks; submit and server errors cancel them, so a check scheduled before the submit
  // click cannot clear the error the server has just returned for that field.
  const pendingBlurChecks = useRef(new Set<number>()).current;
  const cancelBlurChecks = () => {
    for (const timer of pendingBlurChecks) window.clearTimeout(timer);
    pendingBlurChecks.clear();
  };
  const form = useForm<V>({
    mode: 'controlled',
    initialValues,
    validate: (values) => {
      const result = schema.safeParse(values);
      return result.success ? {} : (fieldErrors(result.error, message) as FormErrors);
    },
    enhanceGetInputProps: ({ inputProps, field, form }) => ({
      error:
        typeof inputProps.error === 'string' && inputProps.error
          ? message(inputProps.error)
          : inputProps.error,
      onBlur: () => {
        if (!form.isDirty(field)) return;
        const timer = window.setTimeout(() => {
          pendingBlurChecks.delete(timer);
          form.validateField(field);
        }, BLUR_VALIDATION_DELAY_MS);
        pendingBlurChecks.add(timer);
      },
    }),
  });

  /** Submit handler receiving the parsed (trimmed) values. */
  function handleSubmit(handler: (data: output<S>) => void | Promise<void>) {
    return form.onSubmit((values) => {
      cancelBlurChecks();
      return handler(schema.parse(values));
    });
  }

  /** Show server `fields` errors on the fields; returns true if any field of this form got one. */
  function setServerErrors(error: unknown): boolean {
    if (!(error instanceof ApiError)) return false;
    const known = Object.entries(error.fields).filter(([field]) => field in form.values);
    if (known.length === 0) return false;
    cancelBlurChecks();
    form.setErrors(Object.fromEntries(known));
    return true;
  }

  return { form, handleSubmit, setServerErrors };
}

export type ZodForm = ReturnType<typeof useZodForm>;
