import { AppError } from '../../lib/errors';
import type { InboundEvent } from '../inbound';
import {
  type Connector,
  type ConnectorContext,
  ConnectorError,
  type OutgoingContent,
  type VerifyContext,
  WebhookRejected,
  type WebhookRequest,
} from '../types';
import {
  deleteObject,
  exchangeCode,
  grantedPermissions,
  graphBase,
  listPages,
  NETWORK,
  pageAuth,
  postComment,
  postComments,
  recentPosts,
  sendPageMessage,
  sendPageMessageTo,
  setLike,
  subscribeApp,
  unsubscribeApp,
  updateComment,
} from './client';
import { commentEvent, mapPageWebhook, type PageWebhook, pagesOf, pageWebhookSchema } from './mapping';
import { metaHandshake, verifyMetaSignature } from './meta';
import { withMessengerNames } from './profiles';

// Facebook Page (PROVIDERS.md §4a Messenger, §4b feed comments). Connected through the OAuth dialog
// (/callback/facebook, POST v1/facebook/auth): the code becomes a long-lived user token, which gives the
// chosen Pages' long-lived Page tokens; only the Page token is kept. Updates come by webhook only (Meta
// has no polling for feed or Messenger): one callback for the whole app (/v1/webhooks/facebook/app), signed
// with the app secret, routed to accounts by the entry's Page id.

/** What the connector needs the user to grant (PROVIDERS §4a, §4b). */
export const FACEBOOK_SCOPES = [
  'pages_show_list',
  'pages_manage_metadata',
  'pages_read_engagement',
  'pages_read_user_content',
  'pages_manage_engagement',
  'pages_messaging',
];
/** Webhook fields each Page is subscribed to. */
export const PAGE_FIELDS = ['feed', 'mention', 'messages', 'message_edits'];
/** How many recent posts the import on connect reads comments of. */
const IMPORT_POSTS = 10;

const auth = (ctx: Pick<ConnectorContext, 'config' | 'fetch' | 'credentials'>) =>
  pageAuth(ctx, ctx.credentials.page_token ?? '');

function pageIdOf(ctx: ConnectorContext): string {
  const id = ctx.credentials.page_id ?? ctx.object.externalId;
  if (!id || !ctx.credentials.page_token)
    throw new ConnectorError('auth', 'Facebook: the Page token is missing, reconnect the account', {
      reason: { key: 'failure.reconnect', params: { network: NETWORK } },
    });
  return id;
}

/** Text plus what cannot go as a file: the first image goes as `attachment_url`, the rest as links. */
function commentBody(content: OutgoingContent) {
  const image = content.attachments.find((a) => a.type === 'image');
  const rest = content.attachments.filter((a) => a !== image).map((a) => a.url);
  return { text: [content.text, ...rest].filter(Boolean).join('\n'), image: image?.url };
}

function messageBody(content: OutgoingContent): Record<string, unknown> {
  const text = [content.text, ...content.attachments.map((a) => a.url)].filter(Boolean).join('\n');
  return { text };
}

/**
 * Deliveries parsed already, by body: the app-wide callback reads a delivery to route it, then the
 * connector of each account it concerns reads the same one. Nothing mutates a parsed delivery.
 */
const parsedBodies = new WeakMap<Buffer, PageWebhook | null>();

/** Parses a verified delivery; a signed body we cannot read is accepted and stores nothing. */
export function parseDelivery(request: WebhookRequest): PageWebhook | null {
  const known = parsedBodies.get(request.rawBody);
  if (known !== undefined) return known;
  let json: unknown;
  try {
    json = JSON.parse(request.rawBody.toString('utf8'));
  } catch {
    throw new WebhookRejected('Facebook webhook: body is not JSON');
  }
  const parsed = pageWebhookSchema.safeParse(json);
  const payload = parsed.success ? parsed.data : null;
  parsedBodies.set(request.rawBody, payload);
  return payload;
}

/**
 * The app-wide callback (/v1/webhooks/facebook/app): the handshake against FACEBOOK_VERIFY_TOKEN, or the
 * signature against the app secret, and the Page ids the delivery concerns.
 */
export function facebookAppWebhook(
  config: VerifyContext['config'],
  request: WebhookRequest,
): { status: number; body: string; accounts: string[]; provider?: 'instagram' } {
  if (request.method === 'GET') {
    return {
      status: 200,
      body: metaHandshake(request, config.FACEBOOK_VERIFY_TOKEN ?? '', NETWORK),
      accounts: [],
    };
  }
  verifyMetaSignature(request, config.FACEBOOK_CLIENT_SECRET ?? '', NETWORK);
  const payload = parseDelivery(request);
  // Instagram deliveries (`object: "instagram"`) may come to the same callback: they go to those accounts.
  const provider = payload?.object === 'instagram' ? ('instagram' as const) : undefined;
  return { status: 200, body: 'EVENT_RECEIVED', accounts: payload ? pagesOf(payload) : [], provider };
}

export const facebookConnector: Connector = {
  id: 'facebook',

  appWebhook: facebookAppWebhook,

  oauth: {
    configured: (config) => Boolean(config.FACEBOOK_CLIENT_ID && config.FACEBOOK_CLIENT_SECRET),
    authorizeUrl(config, { redirectUri, state }) {
      const url = new URL(
        `${config.FACEBOOK_OAUTH_URL.replace(/\/+$/, '')}/${config.FACEBOOK_API_VERSION}/dialog/oauth`,
      );
      url.searchParams.set('client_id', config.FACEBOOK_CLIENT_ID ?? '');
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', FACEBOOK_SCOPES.join(','));
      return url.toString();
    },
    async exchange(ctx, { code, redirectUri }) {
      const userToken = await exchangeCode(ctx, { code, redirectUri });
      const user = pageAuth(ctx, userToken);
      const granted = await grantedPermissions(user);
      const missing = FACEBOOK_SCOPES.filter((scope) => !granted.has(scope));
      if (missing.length > 0) {
        throw new AppError(400, 'error.facebookPermissions', {
          errorType: 'missing_permissions',
          params: { permissions: missing.join(', ') },
        });
      }
      const pages = (await listPages(user)).filter((p) => p.access_token);
      const page = pages[0];
      if (!page) throw new AppError(400, 'error.facebookNoPages', { errorType: 'no_pages' });
      return {
        externalId: page.id,
        name: page.name,
        image: page.picture?.data?.url,
        url: `https://www.facebook.com/${page.id}`,
        credentials: { page_id: page.id, page_token: page.access_token ?? '' },
        others: pages.slice(1).map((other) => ({
          externalId: other.id,
          name: other.name,
          image: other.picture?.data?.url,
          url: `https://www.facebook.com/${other.id}`,
          credentials: { page_id: other.id, page_token: other.access_token ?? '' },
        })),
      };
    },
  },

  /** Installs the app on the Page for `feed` and `messages` (the app's own callback gets them). */
  async activate(ctx, opts) {
    if (opts.mode !== 'webhook') return;
    await subscribeApp(auth(ctx), pageIdOf(ctx), PAGE_FIELDS);
  },

  async deactivate(ctx) {
    await unsubscribeApp(auth(ctx), pageIdOf(ctx));
  },

  /** A delivery to the app's callback, or to the account's own address: this Page's part of it. */
  async handleWebhook(ctx, request) {
    if (request.method === 'GET') {
      const challenge = metaHandshake(request, ctx.config.FACEBOOK_VERIFY_TOKEN ?? '', NETWORK);
      return { status: 200, body: challenge, events: [] };
    }
    verifyMetaSignature(request, ctx.config.FACEBOOK_CLIENT_SECRET ?? '', NETWORK);
    const payload = parseDelivery(request);
    const pageId = ctx.credentials.page_id ?? ctx.object.externalId ?? '';
    const events = payload ? mapPageWebhook(payload, pageId, ctx.now()) : [];
    return {
      status: 200,
      body: 'EVENT_RECEIVED',
      events: await withMessengerNames(auth(ctx), events, `${graphBase(ctx.config)}|${pageId}`),
    };
  },

  async sendReply(ctx, target, content) {
    pageIdOf(ctx);
    const { text, image } = commentBody(content);
    return { externalId: await postComment(auth(ctx), target.externalId, text, image) };
  },

  /** A private reply (§4a): one Messenger message to the comment's author, within 7 days. */
  async sendDirect(ctx, target, content) {
    try {
      const sent = await sendPageMessageTo(
        auth(ctx),
        pageIdOf(ctx),
        { comment_id: target.externalId },
        messageBody(content),
      );
      // Messenger's thread with the commenter is keyed by their PSID, not the comment's author id.
      return { externalId: sent.id, ...(sent.recipientId ? { chatExternalId: sent.recipientId } : {}) };
    } catch (error) {
      if (error instanceof ConnectorError && error.kind === 'permanent' && !error.reason) {
        throw new ConnectorError('permanent', error.message, {
          reason: { key: 'failure.privateReplyUsed', params: { network: NETWORK }, detail: error.message },
        });
      }
      throw error;
    }
  },

  async sendMessage(ctx, chat, content) {
    const id = await sendPageMessage(auth(ctx), pageIdOf(ctx), { id: chat.externalId }, messageBody(content));
    return { externalId: id };
  },

  async editReply(ctx, reply, content) {
    pageIdOf(ctx);
    await updateComment(auth(ctx), reply.externalId, { message: commentBody(content).text });
  },

  async hideItem(ctx, item, hidden) {
    pageIdOf(ctx);
    await updateComment(auth(ctx), item.externalId, { is_hidden: hidden });
  },

  async deleteItem(ctx, item) {
    pageIdOf(ctx);
    await deleteObject(auth(ctx), item.externalId);
  },

  async likeItem(ctx, item, liked) {
    pageIdOf(ctx);
    await setLike(auth(ctx), item.externalId, liked);
  },

  /** Comments of the Page's recent posts, newest first (docs/product/limits.md: up to `limit`). */
  async importRecent(ctx, limit) {
    const pageId = pageIdOf(ctx);
    const posts = await recentPosts(auth(ctx), pageId, IMPORT_POSTS);
    const events: InboundEvent[] = [];
    for (const post of posts) {
      if (events.length >= limit) break;
      const comments = await postComments(auth(ctx), post.id, Math.min(100, limit - events.length));
      for (const comment of comments) events.push(commentEvent(pageId, post, comment, ctx.now()));
    }
    return events.slice(0, limit);
  },
};
