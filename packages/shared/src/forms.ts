import { z } from 'zod';
import { OTP_CODE_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants';
import { type MessageKey, messages } from './messages';
import { issueMessage } from './validation-messages';

// Form schemas — docs/product/validation.md. Every message is a MessageKey; the web and the server translate it into the
// caller's locale. The first issue reported for a field is the one shown, so "required" checks come
// before format checks.

const msg = (key: MessageKey) => key;

/** Email that is required (message `requiredKey`) and valid (message `invalidKey`); trimmed (docs/product/validation.md). */
export function emailField(requiredKey: MessageKey, invalidKey: MessageKey) {
  return z
    .string({ error: msg(requiredKey) })
    .trim()
    .min(1, msg(requiredKey))
    .pipe(z.email(msg(invalidKey)));
}

const DIGIT = /\p{N}/u;
const SPECIAL = /[^\p{L}\p{N}\s]/u;

/** docs/product/validation.md signup rule: 8+ characters with at least one digit and one special character. */
export function isStrongPassword(password: string): boolean {
  return password.length >= PASSWORD_MIN_LENGTH && DIGIT.test(password) && SPECIAL.test(password);
}

const newPassword = z
  .string({ error: msg('signup.password.required') })
  .min(1, msg('signup.password.required'))
  .min(PASSWORD_MIN_LENGTH, msg('password.min'))
  .refine((p) => DIGIT.test(p) && SPECIAL.test(p), msg('signup.password.complexity'));

export const loginFormSchema = z.object({
  username: emailField('login.email.required', 'login.email.invalid'),
  password: z
    .string({ error: msg('login.password.required') })
    .min(1, msg('login.password.required'))
    .min(PASSWORD_MIN_LENGTH, msg('password.min')),
  code: z.string().trim().max(OTP_CODE_MAX_LENGTH).optional(),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

const optionalText = z.string().trim().max(255).optional();

export const signupFormSchema = z.object({
  name: z
    .string({ error: msg('signup.name.required') })
    .trim()
    .min(1, msg('signup.name.required'))
    .max(255),
  email: emailField('signup.email.invalid', 'signup.email.invalid'),
  password: newPassword,
  company: z
    .string({ error: msg('signup.company.required') })
    .trim()
    .min(1, msg('signup.company.required'))
    .max(255),
  promocode: optionalText,
  locale: z.enum(['ru', 'en']).optional(),
  tariff_id: z.coerce.number().int().positive().optional(),
  recaptcha_token: z.string().optional(),
});
export type SignupForm = z.infer<typeof signupFormSchema>;

/** Invitation signup: company and promocode hidden, the email locked to the invitation's (docs/product/validation.md). */
export const invitationSignupFormSchema = signupFormSchema.pick({
  name: true,
  password: true,
  locale: true,
  recaptcha_token: true,
});
export type InvitationSignupForm = z.infer<typeof invitationSignupFormSchema>;

export const recoveryFormSchema = z.object({
  email: emailField('recovery.email.required', 'recovery.email.invalid'),
});

/** Reset password: the signup rules for the new password; `code` answers code_required (2FA on). */
export const resetPasswordFormSchema = z
  .object({
    password: newPassword,
    password_confirm: z.string().min(1, msg('reset.confirm.mismatch')),
    code: z.string().trim().max(OTP_CODE_MAX_LENGTH).optional(),
  })
  .refine((v) => v.password === v.password_confirm, {
    path: ['password_confirm'],
    message: msg('reset.confirm.mismatch'),
  });

export const changeEmailFormSchema = z.object({ email: emailField('email.required', 'email.required') });
/** Provider signup without an email asks for one, validated the same way (docs/product/validation.md). */
export const providerEmailFormSchema = changeEmailFormSchema;

export const savedFilterNameSchema = z.object({
  name: z
    .string({ error: msg('filter.name.required') })
    .trim()
    .min(1, msg('filter.name.required'))
    .max(255),
});

export const changePasswordFormSchema = z.object({
  password: z.string().min(1, msg('login.password.required')),
  new_password: newPassword,
});

export const otpCodeSchema = z.object({
  code: z
    .string({ error: msg('code.required') })
    .trim()
    .min(1, msg('code.required'))
    .max(OTP_CODE_MAX_LENGTH),
});

/** First message per field, as `{ field: messageKey }` — what forms show and what the API returns. */
/**
 * The first error of each field as a message key, never the library's English (validation-messages.ts).
 * A message with a parameter ("at most {{limit}} characters") is translated with `translateWith` when
 * given, since a bare key cannot carry it.
 */
export function fieldErrors(
  error: z.ZodError,
  translateWith?: (key: MessageKey, params: Record<string, string | number>) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.join('.') || '_';
    if (field in out) continue;
    const { key, params } = issueMessage(issue);
    out[field] =
      params && translateWith && messages.ru[key].includes('{{') ? translateWith(key, params) : key;
  }
  return out;
}
