import {
  changeEmailFormSchema,
  changePasswordFormSchema,
  invitationSignupFormSchema,
  loginFormSchema,
  otpCodeSchema,
  recoveryFormSchema,
  resetPasswordFormSchema,
  signupFormSchema,
  userSettingsSchema,
} from '@otklik/shared';
import { z } from 'zod';

// API bodies of SPEC §7 "Authentication": the shared form schemas plus the wire-only fields.

const client = { client_id: z.string().min(1), client_secret: z.string().min(1) };

export const passwordGrantSchema = z.object({
  grant_type: z.literal('password'),
  ...client,
  username: loginFormSchema.shape.username,
  // The login form's 8-character minimum is a form hint; the server only needs a non-empty password.
  password: z.string().min(1, 'login.password.required').max(1024),
  code: loginFormSchema.shape.code,
  recaptcha_token: z.string().optional(),
});

export const refreshGrantSchema = z.object({
  grant_type: z.literal('refresh_token'),
  ...client,
  refresh_token: z.string().min(1),
});

export const tokenRequestSchema = z.discriminatedUnion(
  'grant_type',
  [passwordGrantSchema, refreshGrantSchema],
  {
    error: 'error.unsupportedGrant',
  },
);

export const tokenResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  expires_at: z.number().int(),
});

export const signupBodySchema = signupFormSchema;
export const invitationSignupBodySchema = invitationSignupFormSchema;
export const hashParamsSchema = z.object({ hash: z.string().min(1).max(256) });
export const confirmEmailBodySchema = z.object({ hash: z.string().min(1).max(256), ...client });
export const recoveryBodySchema = recoveryFormSchema;
export const resetCheckBodySchema = z.object({ hash: z.string().min(1).max(256) });
export const resetPasswordBodySchema = resetPasswordFormSchema.and(
  z.object({ hash: z.string().min(1).max(256), ...client }),
);
export const changeEmailBodySchema = changeEmailFormSchema;
export const sendConfirmBodySchema = z.object({ email: z.string().trim().optional() });
export const updateMeBodySchema = z.object({
  name: z.string().trim().min(1, 'signup.name.required').max(255).optional(),
  locale: z.enum(['ru', 'en']).optional(),
  /** SPEC §3 User.settings; merged into the stored settings. */
  settings: userSettingsSchema.optional(),
});
export const changePasswordBodySchema = changePasswordFormSchema;
export const otpConfirmBodySchema = otpCodeSchema;
export const otpDisableBodySchema = z.object({ password: z.string().min(1, 'login.password.required') });

export const messageResponseSchema = z.object({ message: z.string() });
export const errorResponseSchema = z.object({
  error: z.string(),
  error_type: z.string().optional(),
  fields: z.record(z.string(), z.string()).optional(),
});
