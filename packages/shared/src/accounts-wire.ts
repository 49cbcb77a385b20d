import { z } from 'zod';
import { accountSettingsSchema } from './accounts';
import { companyWireSchema, departmentWireSchema } from './organisation-wire';
import { CONNECT_KINDS, PROVIDER_IDS } from './providers';
import { labelWireSchema, tagGroupWireSchema, tagWireSchema } from './tags';
import { listWireSchema } from './wire';

// Connected accounts on the wire (docs/product/entities.md Object; Settings → accounts): the list
// GET /v1/objects, one account as its settings screens and the connect answers show it, the errors
// dropdown's rows, and the public sandbox page. Credentials and the token digest never leave the server;
// a public token (sandbox address, ingestion token) is shown only in the answers that issue it.

const id = z.number().int();
/** Unix seconds. */
const unixTime = z.number().int();

/** docs/product/entities.md Object, as GET /v1/objects lists it. */
export const accountObjectWireSchema = z.object({
  id,
  space_id: id,
  company_id: id.nullable(),
  provider: z.string(),
  name: z.string(),
  screen_name: z.string().nullable(),
  image: z.string().nullable(),
  url: z.string().nullable(),
  domain: z.string().nullable(),
  error: z.string().nullable(),
});
export type AccountObjectWire = z.infer<typeof accountObjectWireSchema>;

/** The AI agents the user may use for suggestions (GET /v1/objects?tags=true, issue 21). */
const aiAgentRefWireSchema = z.object({ id, space_id: id, name: z.string() });

/**
 * GET /v1/objects: the accounts and companies the user sees; with `tags=true` also the settings records
 * pickers and filters need.
 */
export const objectsWireSchema = z.object({
  items: z.array(accountObjectWireSchema),
  companies: z.array(companyWireSchema),
  tags: z.array(tagWireSchema).optional(),
  tag_groups: z.array(tagGroupWireSchema).optional(),
  labels: z.array(labelWireSchema).optional(),
  departments: z.array(departmentWireSchema).optional(),
  ai_agents: z.array(aiAgentRefWireSchema).optional(),
});
export type ObjectsWire = z.infer<typeof objectsWireSchema>;

/** One connected account as the settings screens see it (GET/PUT /v1/objects/{id} and the other changes). */
export const accountWireSchema = accountObjectWireSchema.extend({
  error_at: unixTime.nullable(),
  is_active: z.boolean(),
  connect: z.enum(CONNECT_KINDS).nullable(),
  settings: accountSettingsSchema,
  created_at: unixTime.nullable(),
  /** A network's daily API quota (YouTube): units this account spent on the quota's day; null elsewhere. */
  api_quota: z.object({ day: z.string(), used: z.number(), limit: z.number().nullable() }).nullable(),
});
export type AccountWire = z.infer<typeof accountWireSchema>;

/** What an account needs from outside, shown once by the answer that issues it (connect, a new token). */
export const accountRevealWireSchema = z.object({
  /** The public customer page of a sandbox account. */
  sandbox_url: z.string().optional(),
  /** The token a site's collector sends to the ingestion API. */
  ingest_token: z.string().optional(),
});
export type AccountRevealWire = z.infer<typeof accountRevealWireSchema>;

/** The by-hand setup on the network's side (WhatsApp: callback URL and verify token), `{}` when none. */
const setupInstructions = z.record(z.string(), z.string());

/** POST /v1/objects: the account, what it needs from outside (once), items imported on connect, setup. */
export const connectedAccountWireSchema = accountWireSchema.extend({
  ...accountRevealWireSchema.shape,
  imported: z.number().int(),
  setup: setupInstructions,
});
export type ConnectedAccountWire = z.infer<typeof connectedAccountWireSchema>;

/** GET /v1/objects/{id}/setup. */
export const accountSetupWireSchema = z.object({ instructions: setupInstructions });
export type AccountSetupWire = z.infer<typeof accountSetupWireSchema>;

/** GET /v1/objects/{id}/sandbox_url. */
export const sandboxUrlWireSchema = z.object({ sandbox_url: z.string() });

/** POST /v1/{provider}/auth: the account the popup's consent connected, and further ones it gave (Facebook Pages). */
const oauthConnectedAccount = accountWireSchema.extend({ imported: z.number().int() });
export const oauthConnectWireSchema = z.object({
  status: z.literal('ok'),
  source: z.string(),
  object: oauthConnectedAccount,
  others: z.array(oauthConnectedAccount).optional(),
});
export type OAuthConnectWire = z.infer<typeof oauthConnectWireSchema>;

/** GET /v1/{provider}/auth/start: where the popup goes. */
export const oauthStartWireSchema = z.object({ url: z.string() });

/** GET /v1/providers/connectable: a network this server connects, and how. */
export const connectableProviderWireSchema = z.object({
  id: z.enum(PROVIDER_IDS),
  connect: z.enum(CONNECT_KINDS),
  /** Accepts typed credentials (the shared CONNECT_FIELDS form). */
  fields: z.boolean(),
  /** The network's OAuth popup is set up on this server. */
  oauth: z.boolean(),
  /** Networks with more than one way to sign in (Instagram: `facebook`, `instagram`): those offered here. */
  logins: z.array(z.string()).optional(),
});
export type ConnectableProviderWire = z.infer<typeof connectableProviderWireSchema>;
export const connectableProvidersWireSchema = listWireSchema(connectableProviderWireSchema);

/** One row of the errors dropdown and settings/errors (GET /v1/errors). */
export const accountErrorWireSchema = z.object({
  id,
  space_id: id,
  name: z.string(),
  provider: z.string(),
  image: z.string().nullable(),
  error: z.string().nullable(),
  error_at: unixTime.nullable(),
});
export type AccountErrorWire = z.infer<typeof accountErrorWireSchema>;
export const accountErrorsWireSchema = listWireSchema(accountErrorWireSchema);

// ---------------------------------------------------------------- the sandbox customer page

/** One entry of the sandbox page: a post, comment, review or message, with its replies (comments). */
export interface SandboxEntryWire {
  id: number;
  kind: string;
  author_name: string;
  author_id: string;
  from_account: boolean;
  text: string;
  rating: number | null;
  reaction: string | null;
  liked: boolean;
  hidden: boolean;
  deleted: boolean;
  created_at: number | null;
  edited_at: number | null;
  replies: SandboxEntryWire[];
}
const sandboxEntryFields = {
  id,
  kind: z.string(),
  author_name: z.string(),
  author_id: z.string(),
  from_account: z.boolean(),
  text: z.string(),
  rating: z.number().int().nullable(),
  reaction: z.string().nullable(),
  liked: z.boolean(),
  hidden: z.boolean(),
  deleted: z.boolean(),
  created_at: unixTime.nullable(),
  edited_at: unixTime.nullable(),
};
/**
 * The replies nest (a thread) and are entries of the same shape. The schema does not recurse: the OpenAPI
 * document needs a registered component for that, so the nested entries are passed through as they are.
 */
const sandboxReplies = z
  .array(z.custom<SandboxEntryWire>())
  .describe('Entries of the same shape: the replies (comments) under this one, each with its own replies');
export const sandboxEntryWireSchema = z.object({ ...sandboxEntryFields, replies: sandboxReplies });

/** GET /v1/sandbox/{token}: posts with comment threads, reviews, bans and conversations. */
export const sandboxPageWireSchema = z.object({
  account: z.object({ id, name: z.string(), provider: z.string() }),
  reactions: z.array(z.string()),
  posts: z.array(z.object({ ...sandboxEntryFields, comments: sandboxReplies })),
  reviews: z.array(sandboxEntryWireSchema),
  blocked: z.array(z.object({ author_id: z.string(), until: unixTime.nullable() })),
  conversations: z.array(
    z.object({ peer: z.string(), author_name: z.string(), messages: z.array(sandboxEntryWireSchema) }),
  ),
});
export type SandboxPageWire = z.infer<typeof sandboxPageWireSchema>;

/**
 * POST /v1/tpulse/check_auth: the Pulse profile's account — as it stands when that profile was already
 * connected (`existing`), else new, with the items imported on connect and what it needs from outside (once).
 */
export const pulseCheckWireSchema = z.object({
  status: z.literal('ok'),
  source: z.literal('tpulse'),
  object: accountWireSchema.extend({ imported: z.number().int().optional() }),
  existing: z.boolean(),
  ...accountRevealWireSchema.shape,
});
export type PulseCheckWire = z.infer<typeof pulseCheckWireSchema>;
