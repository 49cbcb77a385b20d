import { encodeFailure, type FailureKey, type MessageKey, type ProviderId } from '@otklik/shared';
import type { Db } from '../db/client';
import type { Attachment, ItemKind, objects } from '../db/schema';
import type { Config } from '../lib/config';
import type { InboundEvent } from './inbound';

// The one interface every network implements (ARCHITECTURE "Providers", CONVENTIONS §7). A connector
// only talks to its network: the send path (modules/inbox/actions/send.ts) decides whether an action
// is allowed and records it; the outbox worker (jobs/outbox-worker.ts) calls the connector and records
// the outcome. Connectors never touch our inbox tables.

export type ObjectRow = typeof objects.$inferSelect;

/** Everything a connector call gets: the account, its opened credentials and where the network lives. */
export interface ConnectorContext {
  object: ObjectRow;
  /** The account's credentials, opened (they are stored sealed). Empty when the network needs none. */
  credentials: Record<string, string>;
  /** Base URLs of the networks' APIs (VK_API_URL, FACEBOOK_GRAPH_URL, ...) so tests point them at emulators. */
  config: Config;
  fetch: typeof fetch;
  /** Only for networks whose "servers" are our own database (the sandbox). */
  db: Db;
  now: () => Date;
  /**
   * Stores new credentials for the account (sealed), for networks that rotate tokens on refresh (X).
   * Absent where the context is not bound to a stored account.
   */
  saveCredentials?(credentials: Record<string, string>): Promise<void>;
}

/** A comment, review or mention on the network. */
export interface ItemRef {
  externalId: string;
  kind: ItemKind;
  postExternalId: string | null;
  parentExternalId: string | null;
  authorExternalId: string | null;
}

/** A private conversation on the network. */
export interface ChatRef {
  externalId: string;
  authorExternalId: string | null;
}

export interface OutgoingContent {
  text: string;
  attachments: Attachment[];
  /**
   * The same for every attempt of one send (the outbox row: `outbox:<id>`), so a network with
   * idempotency keys (VK random_id / guid) drops a repeat after a retry whose answer was lost.
   */
  idempotencyKey?: string;
  /**
   * Answer buttons under the message, in rows (a CSI survey's 1–5 scale is one row, a chat-bot's menu one
   * option a row), for a connector with `buttons`; a press comes back as a customer message whose text is
   * the button's `data`. Others never get this field.
   */
  buttons?: OutgoingButton[][];
}

export interface OutgoingButton {
  label: string;
  data: string;
}

export interface SentRef {
  /** The network's id of what we wrote; null when the network gives none (a collector posts it later). */
  externalId: string | null;
  /**
   * A private message's conversation id on the network when it is not the id we addressed it by
   * (Messenger: a private reply to a comment answers with the commenter's PSID): the chat takes it.
   */
  chatExternalId?: string;
}

export type ReactionTarget =
  | { kind: 'item'; item: ItemRef }
  | { kind: 'message'; chat: ChatRef; messageExternalId: string };

/** What connecting an account produced: secrets to store and, once, to show. */
export interface ConnectResult {
  /** Stored sealed in objects.credentials. */
  credentials?: Record<string, string>;
  /** sha256 of the account's public token (sandbox page, ingestion API, webhook secret). */
  ingestTokenDigest?: string;
  /** Shown once in the connect response (e.g. `sandbox_url`, `ingest_token`). */
  reveal?: Record<string, string>;
}

/** Who an account is on its network, learned while connecting. */
export interface AccountIdentity {
  externalId: string;
  name: string;
  screenName?: string;
  image?: string;
  url?: string;
}

/** The result of checking what a user typed (bot token, keys) or of an OAuth code exchange. */
export interface VerifiedAccount extends AccountIdentity {
  /** Stored sealed in objects.credentials. */
  credentials: Record<string, string>;
  /** More accounts the same consent gave (Facebook: every Page chosen in the dialog), connected too. */
  others?: VerifiedAccount[];
}

/** Talking to a network before the account row exists. */
export interface VerifyContext {
  config: Config;
  fetch: typeof fetch;
  now: () => Date;
}

/** A webhook request as received: the raw body is what signatures are computed over. */
export interface WebhookRequest {
  method: string;
  headers: Record<string, string | undefined>;
  query: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
}

export interface WebhookResult {
  /** What the network expects back (VK: the literal `ok` or the confirmation code). Default 200 `ok`. */
  status?: number;
  body?: string | Record<string, unknown>;
  events: InboundEvent[];
}

/** A webhook that failed verification: answered 403, logged, nothing stored. */
export class WebhookRejected extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'WebhookRejected';
  }
}

export interface PollResult {
  events: InboundEvent[];
  /** Where the next poll continues (Telegram offset, VK ts, MAX marker); stored with the account. */
  cursor: string | null;
  /** API quota units the round spent (networks with `polling.quota`). */
  units?: number;
  /**
   * Networks polled on an interval (app stores, with hourly quotas) ask the polling manager to wait this
   * long before the next round; it adds jitter and keeps the account's lease meanwhile. Long polls omit it.
   */
  waitSeconds?: number;
}

/**
 * A network asked on a schedule rather than long-polled (YouTube): the shortest wait between rounds of
 * one account (jobs/pollers.ts adds jitter and backoff), and the network's daily unit quota if it has one.
 */
export interface PollingSchedule {
  intervalMs(config: Config): number;
  quota?: {
    /** Units per day for the whole instance (one API project). */
    daily(config: Config): number;
    /** The quota's day of a moment, YYYY-MM-DD in the network's calendar. */
    day(now: Date): string;
    /** Units each outbox action costs (by outbox action name). */
    costs: Partial<Record<string, number>>;
  };
}

/** How the network tells us about new things: pushes to our webhook, or we ask it. */
export type UpdatesMode = 'webhook' | 'polling';

/**
 * Optional extras of a network that change how a module handles it (issue 12 §5). Modules ask for them
 * through the registry (`capabilitiesOf(provider)`), never by importing a network's folder or testing
 * its id; a connector without one simply lacks it. Declarative on purpose: what a capability changes in
 * our own tables stays in the module that owns them (connectors never touch inbox tables).
 */
export interface ConnectorCapabilities {
  /**
   * Replies leave through a customer's collector feed (GET /v1/ingest/replies), not a network call
   * (catalogue `connect: 'ingest_token'`, generic/connector.ts): the account's ingestion token signs the
   * collector in, an edit goes back to the feed at once, and the retry of a reply the collector refused
   * puts it back in the feed (modules/channels/generic-service.ts).
   */
  collectorFeed?: true;
}

export interface Connector {
  id: ProviderId;
  /** Optional extras modules ask for by name (see ConnectorCapabilities); absent = none. */
  capabilities?: ConnectorCapabilities;
  /** Checks credentials a user typed on the add-account screen with the network (docs/product/screens-and-routes.md accounts/add). */
  verifyCredentials?(ctx: VerifyContext, input: Record<string, string>): Promise<VerifiedAccount>;
  /** Connecting through the network's OAuth popup (docs/product/screens-and-routes.md /callback/{provider}, §7 POST v1/{provider}/auth). */
  oauth?: {
    /** Whether this instance has the app credentials the flow needs (client id and secret). */
    configured(config: Config): boolean;
    /**
     * Networks with more than one way to sign in (Instagram: through Facebook, or Instagram Login):
     * the ways this instance offers, the first being the default. `login` below is one of them.
     */
    logins?(config: Config): string[];
    authorizeUrl(config: Config, opts: { redirectUri: string; state: string; login?: string }): string;
    exchange(
      ctx: VerifyContext,
      /** `state`: the sealed state the popup came back with (X derives its PKCE verifier from it). */
      opts: { code: string; redirectUri: string; state?: string; login?: string },
    ): Promise<VerifiedAccount>;
  };
  /**
   * Renews the account's token before it expires (Instagram Login: 60-day tokens), storing the new one
   * through `ctx.saveCredentials`; jobs/token-refresh.ts calls it. A refused renewal throws an `auth`
   * ConnectorError, which becomes the account's error.
   */
  renewToken?(ctx: ConnectorContext): Promise<void>;
  /**
   * After the account is stored: subscribe to the network's updates (set the webhook with its secret,
   * or clear it for polling). Called again when the account is reconnected.
   */
  activate?(
    ctx: ConnectorContext,
    opts: { mode: UpdatesMode; webhookUrl: string; webhookSecret: string },
  ): Promise<void>;
  /**
   * What an administrator sets up on the network's side by hand (WhatsApp: the callback URL and verify
   * token for Meta's app dashboard). Shown on connect and on the account's settings.
   */
  setupInstructions?(ctx: ConnectorContext): Record<string, string>;
  /** Before the account is removed: unsubscribe (delete the webhook). Failures are logged, not fatal. */
  deactivate?(ctx: ConnectorContext): Promise<void>;
  /**
   * Networks with one callback for the whole app (Meta: /v1/webhooks/facebook/app): verifies the call
   * (throws WebhookRejected) and names the accounts (their external ids) it concerns; each of them then
   * gets the same request through `handleWebhook`.
   */
  appWebhook?(
    config: Config,
    request: WebhookRequest,
  ): {
    status: number;
    body: string | Record<string, unknown>;
    accounts: string[];
    /** Whose accounts these are when not this connector's (Meta sends Instagram to the Page callback). */
    provider?: ProviderId;
  };
  /** Verifies (throws WebhookRejected) and parses a webhook call into inbound events. */
  handleWebhook?(ctx: ConnectorContext, request: WebhookRequest): Promise<WebhookResult>;
  /** One long-poll round; `timeoutSeconds` bounds how long the network may hold the request. */
  poll?(
    ctx: ConnectorContext,
    cursor: string | null,
    opts: { timeoutSeconds: number; signal: AbortSignal },
  ): Promise<PollResult>;
  /** Present for networks polled on a schedule (no long poll): jobs/pollers.ts paces them. */
  polling?: PollingSchedule;
  /** Provider-specific set-up right after the account row exists (tokens, seed data, webhooks). */
  connect?(ctx: ConnectorContext): Promise<ConnectResult>;
  /** A public reply under a comment/review (our reply becomes a child of `target`). */
  /** The network shows OutgoingContent.buttons as native buttons (Telegram inline keyboards). */
  buttons?: boolean;
  sendReply(ctx: ConnectorContext, target: ItemRef, content: OutgoingContent): Promise<SentRef>;
  /** 'Direct': one private message to the author of a comment (docs/product/limits.md). */
  sendDirect?(ctx: ConnectorContext, target: ItemRef, content: OutgoingContent): Promise<SentRef>;
  /** A message in a private conversation; absent for networks without private messages. */
  sendMessage?(ctx: ConnectorContext, chat: ChatRef, content: OutgoingContent): Promise<SentRef>;
  deleteItem?(ctx: ConnectorContext, item: ItemRef): Promise<void>;
  restoreItem?(ctx: ConnectorContext, item: ItemRef): Promise<void>;
  hideItem?(ctx: ConnectorContext, item: ItemRef, hidden: boolean): Promise<void>;
  likeItem?(ctx: ConnectorContext, item: ItemRef, liked: boolean): Promise<void>;
  /** Report a customer's comment to the network as spam/abuse (catalogue `report`). */
  reportItem?(ctx: ConnectorContext, item: ItemRef): Promise<void>;
  /** Set our reaction (`value`), or take it back (null). */
  react?(ctx: ConnectorContext, target: ReactionTarget, value: string | null): Promise<void>;
  /** Change the text of a reply we sent (`reply` is our own item). */
  editReply?(ctx: ConnectorContext, reply: ItemRef, content: OutgoingContent): Promise<void>;
  /** Ban (until `until`, null = forever) or unban an author in the community. */
  blockAuthor?(
    ctx: ConnectorContext,
    author: { externalId: string },
    block: { blocked: boolean; until: Date | null },
  ): Promise<void>;
  /**
   * Refuses up front what this account cannot do, before anything is queued or shown as done: a message
   * key for the 400 answer, or null. (VK moderation needs the admin user token, which is optional.)
   */
  refuses?(
    credentials: Record<string, string>,
    call: { method: keyof Connector; item?: Pick<ItemRef, 'externalId'> },
  ): MessageKey | null;
  /**
   * The bytes of a file the network keeps behind the account's token: an attachment whose url is this
   * connector's reference (`tg-file:<file_id>`, `whatsapp-media:<id>`). Refuses files over `maxBytes`.
   */
  fetchMedia?(ctx: ConnectorContext, ref: string, opts: { maxBytes: number }): Promise<FetchedMedia>;
  /** The newest content of the account, as inbound events, for the import on connect (docs/product/limits.md: 100). */
  importRecent?(ctx: ConnectorContext, limit: number): Promise<InboundEvent[]>;
}

export interface FetchedMedia {
  body: Buffer;
  /** The network's content type, when it says one. */
  contentType: string | null;
}

export type ConnectorErrorKind = 'rate_limited' | 'auth' | 'permanent' | 'temporary';

/** Our own reason for a failure: a message key (packages/shared failure-messages.ts) and its params. */
export interface FailureReason {
  key: FailureKey | MessageKey;
  params?: Record<string, string | number>;
  /** Raw words that came with it (a network's or the system's text), shown quoted. */
  detail?: string;
}

/**
 * How a network call failed, which decides what the outbox worker does: wait and retry (rate_limited,
 * temporary), give up showing the network's own text (permanent), or give up and flag the account
 * (auth: the token was revoked; the errors dropdown tells an administrator to reconnect).
 *
 * `message` is for logs. What is stored and shown is `stored`: our own reason as an encoded message key
 * (translated when shown), or else the network's own text as it gave it (shown quoted).
 */
export class ConnectorError extends Error {
  readonly retryAfterSeconds: number | undefined;
  readonly reason: FailureReason | undefined;

  constructor(
    readonly kind: ConnectorErrorKind,
    /** The network's own text where it gave one; otherwise an English note for the log. */
    message: string,
    opts: { retryAfterSeconds?: number; reason?: FailureReason } = {},
  ) {
    super(message);
    this.name = 'ConnectorError';
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.reason = opts.reason;
  }

  /** What the outbox, the item and the account keep: see the class comment. */
  get stored(): string {
    return this.reason ? encodeFailure(this.reason) : this.message;
  }
}

/** The text to store for any failure: a ConnectorError's `stored`, or another error's message. */
export function storedFailure(error: unknown): string {
  if (error instanceof ConnectorError) return error.stored;
  return error instanceof Error ? error.message : String(error);
}

/** A failure as a message param (`{{reason}}`): translated with the message, the network's words quoted. */
export function failureParam(error: unknown): string {
  if (error instanceof ConnectorError && error.reason) return error.stored;
  return encodeFailure({ key: 'failure.network', detail: storedFailure(error) });
}
