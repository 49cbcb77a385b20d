import { providerEmailFormSchema } from '@otklik/shared';
import { z } from 'zod';
import { SOCIAL_PROVIDER_IDS } from './types';

// Bodies and queries of social sign-in (docs/product/api.md "Authentication"). Provider ids are checked by the
// handlers, so an unknown one gets 'error.providerUnavailable' rather than a validation error.

const provider = z
  .string()
  .trim()
  .min(1, 'field.required')
  .max(32)
  .describe('vk, facebook, google or yandex');
const redirectUri = z
  .string()
  .trim()
  .max(2048)
  .describe('The page the provider sends the browser back to; must be on this server (APP_URL)');
const oauthCallback = {
  code: z.string().trim().max(2048).optional().describe("The `code` of the provider's redirect"),
  error: z
    .string()
    .trim()
    .max(256)
    .optional()
    .describe("The `error` of the provider's redirect (access_denied when the user declined)"),
  redirect_uri: redirectUri.optional(),
};

export const providersQuerySchema = z.object({
  locale: z.string().optional().describe('ru or en; VK and Yandex are offered for ru only'),
});
export const providersResponseSchema = z.object({ providers: z.array(z.enum(SOCIAL_PROVIDER_IDS)) });

export const providerParamsSchema = z.object({ provider });

export const startQuerySchema = z.object({
  redirect_uri: redirectUri.min(1, 'field.required'),
  mode: z
    .enum(['login', 'link'])
    .default('login')
    .describe('login: then POST /v1/signup/provider; link: then POST /v1/me/social'),
});

export const providerSignupBodySchema = z.object({
  provider,
  // Code flow.
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  ...oauthCallback,
  state: z
    .string()
    .max(4096)
    .optional()
    .describe('The state from /v1/auth/social/{provider}/start, checked when sent'),
  locale: z.enum(['ru', 'en']).optional().describe('Locale of a new user'),
  // Completion of a no_email or code_required answer.
  access_token: z
    .string()
    .max(256)
    .optional()
    .describe('The pending token from the no_email or code_required error'),
  email: providerEmailFormSchema.shape.email.optional().describe('Answer to no_email'),
  code: oauthCallback.code.describe(
    "The `code` of the provider's redirect; with access_token, the TOTP or recovery code answering code_required",
  ),
});

export const linkBodySchema = z.object({
  provider,
  ...oauthCallback,
  state: z.string({ error: 'field.required' }).min(1, 'field.required').max(4096),
});

export const linkedProvidersResponseSchema = z.object({ providers: z.array(z.enum(SOCIAL_PROVIDER_IDS)) });
