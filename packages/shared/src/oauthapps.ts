import { z } from 'zod';

// Third-party apps (issue 14 item 8): OAuth2 clients an administrator registers for a space, used by
// other software with the authorization-code grant and PKCE S256 (RFC 6749 §4.1, RFC 7636).

/** An authorization code lives this long (RFC 6749 §4.1.2: at most 10 minutes) and works once. */
export const OAUTH_CODE_TTL_S = 600;
export const OAUTH_APP_NAME_MAX = 100;
export const OAUTH_REDIRECT_URIS_MAX = 10;
/** Prefix of a third-party client id, so a log line or a support ticket shows what kind of id it is. */
export const OAUTH_CLIENT_ID_PREFIX = 'app_';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A redirect URI an app may register: an absolute https address, or http on the loopback interface
 * (RFC 8252 §7.3, native apps and local tools). No fragment (RFC 6749 §3.1.2), no credentials.
 */
export function isAllowedRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || value.includes('#') || url.username || url.password) return false;
  if (url.protocol === 'https:') return url.hostname.length > 0;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

const redirectUriField = z
  .string()
  .trim()
  .max(2000, 'field.tooLong')
  .refine(isAllowedRedirectUri, 'oauth.redirect.invalid');

const nameField = z
  .string({ error: 'oauth.name.required' })
  .trim()
  .min(1, 'oauth.name.required')
  .max(OAUTH_APP_NAME_MAX, 'field.tooLong');

const redirectUrisField = z
  .array(redirectUriField)
  .min(1, 'oauth.redirect.required')
  .max(OAUTH_REDIRECT_URIS_MAX, 'oauth.redirect.tooMany')
  .transform((list) => [...new Set(list)]);

export const oauthAppFormSchema = z.object({
  name: nameField,
  redirect_uris: redirectUrisField,
});
export type OAuthAppForm = z.input<typeof oauthAppFormSchema>;

export const createOAuthAppBody = oauthAppFormSchema.extend({ space_id: z.number().int().positive() });
export const updateOAuthAppBody = oauthAppFormSchema.partial();

/** One registered app as the management screen sees it; the secret is never part of it. */
export const oauthAppWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  client_id: z.string(),
  name: z.string(),
  redirect_uris: z.array(z.string()),
  created_by: z.number().int().nullable(),
  created_at: z.number().int(),
  last_used_at: z.number().int().nullable(),
  /** Users holding a live grant (a refresh token that still works). */
  active_users: z.number().int(),
});
export type OAuthAppView = z.infer<typeof oauthAppWireSchema>;

/** What creating an app or regenerating its secret answers: the only time the secret is shown. */
export const oauthAppWithSecretWireSchema = oauthAppWireSchema.extend({ client_secret: z.string() });
export type OAuthAppWithSecret = z.infer<typeof oauthAppWithSecretWireSchema>;

/** GET /v1/oauth/apps: the apps, and the spaces where the caller may register them. */
export const oauthAppsWireSchema = z.object({
  items: z.array(oauthAppWireSchema),
  can_manage: z.array(z.number().int()),
});
export type OAuthAppsWire = z.infer<typeof oauthAppsWireSchema>;

/** An app the signed-in user allowed, with its space. */
export const oauthGrantWireSchema = z.object({
  app_id: z.number().int(),
  client_id: z.string(),
  name: z.string(),
  space_id: z.number().int(),
  space_name: z.string(),
  /** When the user first allowed it (the oldest live token chain). */
  granted_at: z.number().int(),
  last_used_at: z.number().int().nullable(),
});
export type OAuthGrantView = z.infer<typeof oauthGrantWireSchema>;

/** Where the consent screen sends the browser: the app's address with a code and state, or an error. */
export const oauthRedirectWireSchema = z.object({ redirect_to: z.string() });
export type OAuthRedirectWire = z.infer<typeof oauthRedirectWireSchema>;

/** GET /v1/oauth/authorize: the app and space to ask about, or (a request the app must hear about) where to go. */
export const oauthConsentWireSchema = z.object({
  app: z.object({ name: z.string(), client_id: z.string() }),
  space: z.object({ id: z.number().int(), name: z.string() }),
  redirect_uri: z.string(),
});
export type OAuthConsentWire = z.infer<typeof oauthConsentWireSchema>;
export const oauthAuthorizeCheckWireSchema = z.union([oauthRedirectWireSchema, oauthConsentWireSchema]);

/** RFC 7636 §4.2: base64url of a SHA-256 digest, 43 characters. */
export const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43,128}$/;
/** RFC 7636 §4.1: the verifier alphabet and length. */
export const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** The authorization request's parameters (RFC 6749 §4.1.1 + RFC 7636 §4.3), as /oauth receives them. */
export const authorizeRequestSchema = z.object({
  response_type: z.string(),
  client_id: z.string().min(1).max(200),
  redirect_uri: z.string().min(1).max(2000),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
  state: z.string().max(2000).optional(),
  scope: z.string().max(2000).optional(),
});
export type AuthorizeRequest = z.infer<typeof authorizeRequestSchema>;
