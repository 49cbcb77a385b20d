import { z } from 'zod';
import { LOCALES } from './i18n';

// The signed-in user and the sign-up/sign-in flows on the wire (docs/product/api.md "Authentication",
// entities.md User): what the auth routes answer. An allow-list: no hashes, secrets or codes.

/** A session's token pair (RFC 6749 §5.1), as /oauth2/token and the flows that sign in answer it. */
export const tokenWireSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  /** Unix seconds. */
  expires_at: z.number().int(),
});
export type TokenWire = z.infer<typeof tokenWireSchema>;

/** A change whose answer is a translated sentence for the user ("Письмо отправлено"). */
export const noticeWireSchema = z.object({ message: z.string() });
export type NoticeWire = z.infer<typeof noticeWireSchema>;

/** POST /v1/signup: the confirmation mail went to `email`. */
export const signupWireSchema = z.object({ message: z.string(), email: z.string() });
export type SignupWire = z.infer<typeof signupWireSchema>;

/** A change that also signs in or rotates the session: the new token pair. */
export const messageAndTokenWireSchema = z.object({ message: z.string(), token: tokenWireSchema });
export type MessageAndTokenWire = z.infer<typeof messageAndTokenWireSchema>;

/** POST /v1/confirm_email: no token for a user with 2FA on (the link is one factor). */
export const confirmEmailWireSchema = z.object({ message: z.string(), token: tokenWireSchema.optional() });
export type ConfirmEmailWire = z.infer<typeof confirmEmailWireSchema>;

/** The address an invitation or a reset link is for. */
/**
 * The first step of turning on two-factor sign-in: the new TOTP secret for the user's authenticator app
 * (shown once, to its owner only; stored sealed), its otpauth:// link and QR code (a PNG data: URL), and
 * the one-time recovery codes (stored as digests).
 */
export const otpSetupWireSchema = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  qr: z.string(),
  recovery_codes: z.array(z.string()),
});
export type OtpSetupWire = z.infer<typeof otpSetupWireSchema>;

export const emailWireSchema = z.object({ email: z.string() });
export type EmailWire = z.infer<typeof emailWireSchema>;

/** docs/product/entities.md User: GET/PUT /v1/me and the config's `user`. */
export const meWireSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  /** Below 1: the email is not confirmed. */
  email_status: z.number().int(),
  status: z.number().int().nullable(),
  locale: z.enum(LOCALES),
  /** The union of the user's roles over their spaces; per-space roles come with the config. */
  roles: z.record(z.string(), z.boolean()),
  /** docs/product/entities.md User.settings as stored (userSettingsSchema's keys). */
  settings: z.record(z.string(), z.unknown()),
  is_partner: z.boolean(),
  otp_enabled: z.boolean(),
  /** False for an account made by a social sign-in that never set a password. */
  has_password: z.boolean(),
});
export type MeWire = z.infer<typeof meWireSchema>;
