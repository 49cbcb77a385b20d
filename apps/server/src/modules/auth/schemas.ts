import {
  changeEmailFormSchema,
  changePasswordFormSchema,
  invitationSignupFormSchema,
  loginFormSchema,
  otpCodeSchema,
  recoveryFormSchema,
  resetPasswordFormSchema,
  signupFormSchema,
  tokenWireSchema,
  userSettingsSchema,
} from '@otklik/shared';
import { z } from 'zod';
import { SOCIAL_PROVIDER_IDS } from './social/types';

// API bodies of docs/product/api.md "Authentication": the shared form schemas plus the wire-only fields.

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

/** RFC 6749 §4.1.3 + RFC 7636 §4.5, for third-party apps (modules/oauthapps); checked by the service. */
export const authorizationCodeGrantSchema = z.object({
  grant_type: z.literal('authorization_code'),
  ...client,
  code: z.string().max(512).optional(),
  redirect_uri: z.string().max(2000).optional(),
  code_verifier: z.string().max(200).optional(),
});

export const tokenRequestSchema = z.discriminatedUnion(
  'grant_type',
  [passwordGrantSchema, refreshGrantSchema, authorizationCodeGrantSchema],
  {
    error: 'error.unsupportedGrant',
  },
);

export const authConfigQuerySchema = z.object({
  locale: z.string().optional().describe('ru or en; VK and Yandex are offered for ru only'),
});
export const authConfigResponseSchema = z.object({
  social_providers: z.array(z.enum(SOCIAL_PROVIDER_IDS)),
  recaptcha: z.object({ site_key: z.string(), script_url: z.string() }).nullable(),
});

/** RFC 7009 revocation by an OAuth client. */
export const revokeBodySchema = z.object({
  token: z.string().max(512).optional(),
  token_type_hint: z.string().max(64).optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
});

export const tokenResponseSchema = tokenWireSchema;

export const signupBodySchema = signupFormSchema;
export const invitationSignupBodySchema = invitationSignupFormSchema;
export const hashParamsSchema = z.object({ hash: z.string().min(1).max(256) });
export const confirmEmailBodySchema = z.object({ hash: z.string().min(1).max(256), ...client });
export const recoveryBodySchema = recoveryFormSchema.extend({ recaptcha_token: z.string().optional() });
export const resetCheckBodySchema = z.object({ hash: z.string().min(1).max(256) });
export const resetPasswordBodySchema = resetPasswordFormSchema.and(
  z.object({ hash: z.string().min(1).max(256), ...client }),
);
export const changeEmailBodySchema = changeEmailFormSchema;
export const sendConfirmBodySchema = z.object({ email: z.string().trim().optional() });
export const updateMeBodySchema = z.object({
  name: z.string().trim().min(1, 'signup.name.required').max(255).optional(),
  locale: z.enum(['ru', 'en']).optional(),
  /** docs/product/entities.md User.settings; merged into the stored settings. */
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
