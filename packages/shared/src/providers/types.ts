import { z } from 'zod';
import { LOCALES } from '../i18n';
import { PROVIDER_IDS } from './ids';

// The shape of one provider catalogue entry — docs/product/entities.md "Provider catalogue entry". The schema is the
// contract; the types below are inferred from it so the two cannot drift.

/** Kinds of public content a provider delivers as comments (docs/product/entities.md "comments"). */
export const CONTENT_KINDS = ['comment', 'review', 'mention'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

/** Per-account settings screens that apply to a provider (docs/product/screens-and-routes.md: accounts/{id}/exclude, …/reactions). */
export const ACCOUNT_SETTINGS = ['exclude', 'exclude_messages', 'chats', 'stickers', 'reactions'] as const;
export type AccountSetting = (typeof ACCOUNT_SETTINGS)[number];

/**
 * How an account is connected: a bot token pasted into a form; an OAuth-style popup at the network
 * (docs/product/screens-and-routes.md callback routes); several credentials (API keys, ids, secrets); a token for our generic
 * ingestion API, for review sites without a public API that a customer's own collector posts to
 * (ARCHITECTURE "Providers"); or nothing at all (the sandbox).
 */
export const CONNECT_KINDS = ['bot_token', 'oauth', 'credentials', 'ingest_token', 'none'] as const;
export type ConnectKind = (typeof CONNECT_KINDS)[number];

/** Every action flag of an entry (docs/product/entities.md "Actions flags", plus direct, block and react). */
export const PROVIDER_ACTIONS = [
  'delete',
  'restore',
  'reply',
  'like',
  'hide',
  'report',
  'edit_comment',
  'direct',
  'block',
  'react',
] as const;
export type ProviderAction = (typeof PROVIDER_ACTIONS)[number];

/** What an operator writes: a private message (chats) or a public comment/reply (items). */
export const REPLY_KINDS = ['message', 'comment'] as const;
export type ReplyKind = (typeof REPLY_KINDS)[number];

/** Parses a provider id in API bodies and queries. */
export const providerIdSchema = z.enum(PROVIDER_IDS);

const localizedText = z.record(z.enum(LOCALES), z.string().trim().min(1));
const positiveInt = z.number().int().positive();

export const providerActionsSchema = z.strictObject({
  /** Delete the incoming comment/message at the network (moderation), not our own reply. */
  delete: z.boolean(),
  /** Undo a delete (VK wall.restoreComment). */
  restore: z.boolean(),
  reply: z.boolean(),
  /** Like a comment as the connected account. */
  like: z.boolean(),
  /** Hide a comment from the public while keeping it. */
  hide: z.boolean(),
  /** Report a comment as spam/abuse to the network. */
  report: z.boolean(),
  /** Edit a reply we already sent: true, or the number of seconds it stays editable (docs/product/entities.md, limits.md). */
  edit_comment: z.union([z.boolean(), positiveInt]),
  /** Answer a commenter with a single private message ('Direct', docs/product/limits.md). */
  direct: z.boolean(),
  /** Ban the author from the community/channel. */
  block: z.boolean(),
  /** Set a reaction from `reactions.items`. */
  react: z.boolean(),
});
export type ProviderActions = z.infer<typeof providerActionsSchema>;

/** Text limits in characters, except `messageBytes` (UTF-8 bytes) — docs/product/validation.md "Text limits". */
export const providerLengthSchema = z.strictObject({
  message: positiveInt.optional(),
  comment: positiveInt.optional(),
  messageBytes: positiveInt.optional(),
  /** Caption limit of a message that carries attachments. */
  messageAttach: positiveInt.optional(),
  /** Caption limit of a comment that carries attachments. */
  commentAttach: positiveInt.optional(),
});
export type ProviderLength = z.infer<typeof providerLengthSchema>;

/** Maximum attachment count per message/comment — docs/product/validation.md "Attachment counts". Absent means none allowed. */
export const providerUploadSchema = z.strictObject({
  message: positiveInt.optional(),
  comment: positiveInt.optional(),
});
export type ProviderUpload = z.infer<typeof providerUploadSchema>;

export const reactionItemSchema = z.strictObject({
  /** A numeric id (VK) or the emoji itself (Telegram, WhatsApp) — docs/product/entities.md. */
  value: z.union([positiveInt, z.string().min(1)]),
  /** Icon key the web maps to a picture, for values that are not printable (VK ids). */
  image: z.string().min(1).optional(),
});
export type ReactionItem = z.infer<typeof reactionItemSchema>;

export const providerReactionsSchema = z.strictObject({
  /** The set is offered on private messages (chats). */
  messages: z.boolean(),
  items: z.array(reactionItemSchema).min(1).readonly(),
});
export type ProviderReactions = z.infer<typeof providerReactionsSchema>;

export const providerEntrySchema = z
  .strictObject({
    id: providerIdSchema,
    /** Short brand name shown on badges and filters. */
    name: z.string().min(1),
    /** What exactly gets connected, shown on the connect screen (in the reader's language). */
    longName: localizedText,
    description: localizedText,
    /** The network's public site; null for the sandbox, which has none. */
    url: z.url({ protocol: /^https$/ }).nullable(),
    color: z.string().regex(/^#[0-9A-F]{6}$/, 'upper-case #RRGGBB'),
    /** Icon key (e.g. 'brand-telegram') that the web maps to an icon; no binary assets here. */
    icon: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
    /** Not offered for connecting; existing accounts keep working. */
    hidden: z.boolean(),
    settings: z.array(z.enum(ACCOUNT_SETTINGS)).readonly(),
    comments: z.array(z.enum(CONTENT_KINDS)).readonly(),
    messages: z.boolean(),
    actions: providerActionsSchema,
    length: providerLengthSchema,
    upload: providerUploadSchema,
    reactions: providerReactionsSchema.nullable(),
    /** Help text shown beside the connect form. */
    formHint: localizedText.optional(),
    connect: z.enum(CONNECT_KINDS),
    /** `delete` works on the account's own posts only (X, Google Business Profile): not offered on customers'. */
    deleteOwnOnly: z.boolean().optional(),
  })
  .superRefine((entry, ctx) => {
    const fail = (path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const unique = <T>(list: readonly T[]) => new Set(list).size === list.length;

    if (!unique(entry.comments)) fail(['comments'], 'duplicate content kind');
    if (!unique(entry.settings)) fail(['settings'], 'duplicate setting');
    if (entry.comments.length === 0 && !entry.messages) fail(['comments'], 'provider delivers nothing');

    // Settings screens only make sense for what the provider delivers.
    if (entry.settings.includes('exclude') && entry.comments.length === 0) {
      fail(['settings'], 'exclude needs comments');
    }
    if (entry.settings.includes('exclude_messages') && !entry.messages) {
      fail(['settings'], 'exclude_messages needs messages');
    }
    if (entry.settings.includes('reactions') && entry.reactions === null) {
      fail(['settings'], 'reactions setting needs a reaction set');
    }

    // A reaction picker needs a set to pick from, and a set is pointless without the action.
    if (entry.actions.react !== (entry.reactions !== null)) {
      fail(['actions', 'react'], 'react must be true exactly when reactions are listed');
    }
    if (entry.reactions && !unique(entry.reactions.items.map((item) => item.value))) {
      fail(['reactions', 'items'], 'duplicate reaction value');
    }
    if (entry.actions.restore && !entry.actions.delete) fail(['actions', 'restore'], 'restore needs delete');
    if (entry.deleteOwnOnly && !entry.actions.delete) fail(['deleteOwnOnly'], 'deleteOwnOnly needs delete');
    if (entry.actions.direct && (!entry.messages || entry.comments.length === 0)) {
      fail(['actions', 'direct'], 'direct replies to a comment by a private message');
    }

    // Limits for content the provider cannot carry would be dead data. `length.message` alone is exempt:
    // docs/product/validation.md gives YouTube a message limit although YouTube has no private messages.
    const { length, upload } = entry;
    if (entry.comments.length === 0 && (length.comment || length.commentAttach || upload.comment)) {
      fail(['length'], 'comment limits without comments');
    }
    if (!entry.messages && (length.messageBytes || length.messageAttach || upload.message)) {
      fail(['length'], 'message limits without messages');
    }
    // A caption limit only applies when attachments are possible, and is the tighter one.
    for (const kind of REPLY_KINDS) {
      const caption = length[`${kind}Attach`];
      const plain = length[kind];
      if (caption && (!upload[kind] || (plain && caption > plain))) {
        fail(['length', `${kind}Attach`], `caption limit needs ${kind} uploads and must not exceed ${kind}`);
      }
    }
  });

export type ProviderEntry = z.infer<typeof providerEntrySchema>;
