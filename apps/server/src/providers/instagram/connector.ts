import { AppError } from '../../lib/errors';
import {
  exchangeCode,
  grantedPermissions,
  listPages,
  sendPageMessage,
  subscribeApp,
} from '../facebook/client';
import { facebookAppWebhook, PAGE_FIELDS, parseDelivery } from '../facebook/connector';
import { type GraphAuth, graphCall, metaHandshake, verifyMetaSignature } from '../facebook/meta';
import type { InboundEvent } from '../inbound';
import {
  type Connector,
  type ConnectorContext,
  ConnectorError,
  type OutgoingContent,
  type VerifiedAccount,
} from '../types';
import {
  deleteComment,
  hideComment,
  igAuth,
  linkedAccount,
  mediaComments,
  mentionDetails,
  NETWORK,
  profile,
  recentMedia,
  replyToComment,
  replyToMention,
} from './client';
import {
  igLoginAuth,
  igLoginAuthorizeUrl,
  igLoginConfigured,
  igLoginExchange,
  LOGIN_FACEBOOK,
  LOGIN_INSTAGRAM,
  renewedToken,
} from './login';
import { importedComment, mapInstagramWebhook, mentionEvent } from './mapping';

// Instagram professional accounts (PROVIDERS.md §4c, "Instagram API with Facebook Login"). Connected through
// Facebook's OAuth dialog (/callback/instagram, POST v1/instagram/auth) with the Facebook app of
// FACEBOOK_CLIENT_ID: each chosen Page with a linked professional account becomes an account; the Page's
// long-lived token is kept and every call goes through graph.facebook.com. Updates come by webhook only,
// signed with the same app secret: `object: "instagram"` deliveries to the Facebook app callback
// (/v1/webhooks/facebook/app) or to /v1/webhooks/instagram/app, routed by the entry's account id.
// Instagram Login (login.ts; accounts without a Page) differs only in how it connects, its token (the
// account's own 60-day token, renewed by jobs/token-refresh.ts), its host (graph.instagram.com), where
// Direct goes (`/{ig-user-id}/messages`) and the secret its webhooks are signed with (INSTAGRAM_APP_SECRET,
// delivered to /v1/webhooks/instagram/app); intake and actions below are the same for both.

/** What the connector needs the user to grant (PROVIDERS §4c). */
export const INSTAGRAM_SCOPES = [
  'instagram_basic',
  'instagram_manage_comments',
  'instagram_manage_messages',
  'pages_show_list',
  'pages_read_engagement',
  'pages_manage_metadata',
];

/** How many recent media the import on connect reads comments of. */
const IMPORT_MEDIA = 10;

const isIgLogin = (credentials: Record<string, string>) => credentials.login === LOGIN_INSTAGRAM;

/** Graph with the Page token (Facebook login) or the account's own token on graph.instagram.com. */
const auth = (ctx: Pick<ConnectorContext, 'config' | 'fetch' | 'credentials'>): GraphAuth =>
  isIgLogin(ctx.credentials)
    ? igLoginAuth(ctx, ctx.credentials.access_token ?? '')
    : igAuth(ctx, ctx.credentials.page_token ?? '');

/** The account, and the node Direct messages go through: the Page (Facebook login) or the account itself. */
function ids(ctx: ConnectorContext): { igId: string; sender: string } {
  const igId = ctx.credentials.ig_user_id ?? ctx.object.externalId;
  const sender = isIgLogin(ctx.credentials) ? igId : ctx.credentials.page_id;
  const token = isIgLogin(ctx.credentials) ? ctx.credentials.access_token : ctx.credentials.page_token;
  if (!igId || !sender || !token)
    throw new ConnectorError('auth', 'Instagram: the token is missing, reconnect the account', {
      reason: { key: 'failure.reconnect', params: { network: NETWORK } },
    });
  return { igId, sender };
}

/** The secret Meta signs this account's deliveries with: the Instagram app's for Instagram Login. */
const signingSecret = (ctx: Pick<ConnectorContext, 'config' | 'credentials'>) =>
  (isIgLogin(ctx.credentials) ? ctx.config.INSTAGRAM_APP_SECRET : ctx.config.FACEBOOK_CLIENT_SECRET) ?? '';

/** The ways to sign in this server offers, the Facebook login first; without `login` the first is taken. */
const loginsOf = (config: ConnectorContext['config']) => [
  ...(config.FACEBOOK_CLIENT_ID && config.FACEBOOK_CLIENT_SECRET ? [LOGIN_FACEBOOK] : []),
  ...(igLoginConfigured(config) ? [LOGIN_INSTAGRAM] : []),
];

/** Instagram Login's webhook fields (the Page's fields do the same for the Facebook login). */
const IG_LOGIN_FIELDS = ['comments', 'messages'];

/** Instagram comments take text only: attachments go as links. */
function textOf(content: OutgoingContent) {
  return [content.text, ...content.attachments.map((a) => a.url)].filter(Boolean).join('\n');
}

/** The Pages the user chose that have a professional account linked, as accounts. */
async function accountsOf(
  ctx: Parameters<NonNullable<Connector['oauth']>['exchange']>[0],
  userToken: string,
) {
  const pages = (await listPages(igAuth(ctx, userToken))).filter((p) => p.access_token);
  const found: VerifiedAccount[] = [];
  for (const page of pages) {
    const pageAuth = igAuth(ctx, page.access_token ?? '');
    const igId = await linkedAccount(pageAuth, page.id);
    if (!igId) continue;
    const me = await profile(pageAuth, igId);
    const username = me.username ?? me.name ?? page.name;
    found.push({
      externalId: igId,
      name: username,
      image: me.profile_picture_url,
      url: `https://www.instagram.com/${encodeURIComponent(username)}`,
      credentials: { ig_user_id: igId, page_id: page.id, page_token: page.access_token ?? '' },
    });
  }
  return found;
}

export const instagramConnector: Connector = {
  id: 'instagram',

  /**
   * /v1/webhooks/instagram/app: the Instagram product's own callback. Deliveries for Facebook-login
   * accounts are signed with the Meta app secret, Instagram Login's with the Instagram app secret: either
   * passes here, and each account's handleWebhook checks its own again.
   */
  appWebhook(config, request) {
    const secrets = [config.FACEBOOK_CLIENT_SECRET, config.INSTAGRAM_APP_SECRET].filter((s): s is string =>
      Boolean(s),
    );
    let routed: ReturnType<typeof facebookAppWebhook> | undefined;
    let rejected: unknown;
    for (const secret of secrets.length > 0 ? secrets : ['']) {
      try {
        routed = facebookAppWebhook({ ...config, FACEBOOK_CLIENT_SECRET: secret }, request);
        break;
      } catch (error) {
        rejected = error;
      }
    }
    if (!routed) throw rejected;
    return {
      ...routed,
      accounts: routed.provider === 'instagram' ? routed.accounts : [],
      provider: undefined,
    };
  },

  oauth: {
    configured: (config) =>
      Boolean(config.FACEBOOK_CLIENT_ID && config.FACEBOOK_CLIENT_SECRET) || igLoginConfigured(config),
    /** Through Facebook (a Page linked to the account) and Instagram Login, as this server has the apps. */
    logins: loginsOf,
    authorizeUrl(config, { redirectUri, state, login }) {
      if ((login ?? loginsOf(config)[0]) === LOGIN_INSTAGRAM)
        return igLoginAuthorizeUrl(config, { redirectUri, state });
      const url = new URL(
        `${config.FACEBOOK_OAUTH_URL.replace(/\/+$/, '')}/${config.FACEBOOK_API_VERSION}/dialog/oauth`,
      );
      url.searchParams.set('client_id', config.FACEBOOK_CLIENT_ID ?? '');
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('state', state);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', INSTAGRAM_SCOPES.join(','));
      return url.toString();
    },
    async exchange(ctx, { code, redirectUri, login }) {
      if ((login ?? loginsOf(ctx.config)[0]) === LOGIN_INSTAGRAM)
        return igLoginExchange(ctx, { code, redirectUri });
      const userToken = await exchangeCode(ctx, { code, redirectUri });
      const granted = await grantedPermissions(igAuth(ctx, userToken));
      const missing = INSTAGRAM_SCOPES.filter((scope) => !granted.has(scope));
      if (missing.length > 0) {
        throw new AppError(400, 'error.instagramPermissions', {
          errorType: 'missing_permissions',
          params: { permissions: missing.join(', ') },
        });
      }
      const [first, ...others] = await accountsOf(ctx, userToken);
      if (!first) throw new AppError(400, 'error.instagramNoAccount', { errorType: 'no_instagram_account' });
      return { ...first, others };
    },
  },

  /**
   * Facebook login: installs the app on the linked Page (Instagram messaging webhooks need it; Facebook's
   * fields kept). Instagram Login: subscribes the account itself (`POST /{ig-user-id}/subscribed_apps`).
   */
  async activate(ctx, opts) {
    if (opts.mode !== 'webhook') return;
    const { igId, sender } = ids(ctx);
    if (isIgLogin(ctx.credentials))
      await graphCall(auth(ctx), 'POST', `${encodeURIComponent(igId)}/subscribed_apps`, {
        query: { subscribed_fields: IG_LOGIN_FIELDS.join(',') },
      });
    else await subscribeApp(auth(ctx), sender, PAGE_FIELDS);
  },

  /** Instagram Login's 60-day token, renewed in its last week (jobs/token-refresh.ts). */
  async renewToken(ctx) {
    if (!isIgLogin(ctx.credentials)) return;
    const renewed = await renewedToken(ctx, ctx.credentials);
    if (renewed) await ctx.saveCredentials?.(renewed);
  },

  async handleWebhook(ctx, request) {
    if (request.method === 'GET') {
      const challenge = metaHandshake(request, ctx.config.FACEBOOK_VERIFY_TOKEN ?? '', NETWORK);
      return { status: 200, body: challenge, events: [] };
    }
    verifyMetaSignature(request, signingSecret(ctx), NETWORK);
    const payload = parseDelivery(request);
    const igId = ctx.credentials.ig_user_id ?? ctx.object.externalId ?? '';
    if (!payload) return { status: 200, body: 'EVENT_RECEIVED', events: [] };
    const { events, mentions } = mapInstagramWebhook(payload, igId, ctx.now());
    for (const mention of mentions) {
      // The webhook names the mention only; its text is looked up (a failed look-up keeps the bare item).
      const found = await mentionDetails(auth(ctx), igId, mention).catch(() => undefined);
      events.push(mentionEvent(mention, found, ctx.now()));
    }
    return { status: 200, body: 'EVENT_RECEIVED', events };
  },

  async sendReply(ctx, target, content) {
    const { igId } = ids(ctx);
    const text = textOf(content);
    if (target.kind === 'mention') {
      // A mention in someone's comment (its media is the post) or in a caption (the item is the media).
      const mediaId = target.postExternalId ?? target.externalId;
      const commentId = target.postExternalId ? target.externalId : undefined;
      return { externalId: await replyToMention(auth(ctx), igId, { commentId, mediaId }, text) };
    }
    return { externalId: await replyToComment(auth(ctx), target.externalId, text) };
  },

  /** A private reply: one Direct message to the commenter, within 7 days of the comment. */
  async sendDirect(ctx, target, content) {
    try {
      // Instagram's comment author id is the Instagram-scoped id its Direct thread is keyed by: unlike a
      // Facebook private reply, nothing to re-key.
      const id = await sendPageMessage(
        auth(ctx),
        ids(ctx).sender,
        { comment_id: target.externalId },
        { text: textOf(content) },
      );
      return { externalId: id };
    } catch (error) {
      if (error instanceof ConnectorError && error.kind === 'permanent' && !error.reason) {
        throw new ConnectorError('permanent', error.message, {
          reason: { key: 'failure.privateReplyUsed', params: { network: NETWORK }, detail: error.message },
        });
      }
      throw error;
    }
  },

  /** Direct answers (the 24-hour window: outside it Graph's 10/2018278 becomes failure.messagingWindow). */
  async sendMessage(ctx, chat, content) {
    const id = await sendPageMessage(
      auth(ctx),
      ids(ctx).sender,
      { id: chat.externalId },
      { text: textOf(content) },
    );
    return { externalId: id };
  },

  async hideItem(ctx, item, hidden) {
    ids(ctx);
    await hideComment(auth(ctx), item.externalId, hidden);
  },

  async deleteItem(ctx, item) {
    ids(ctx);
    await deleteComment(auth(ctx), item.externalId);
  },

  /** Comments (and their replies) on the latest media, up to `limit` (docs/product/limits.md). */
  async importRecent(ctx, limit) {
    const { igId } = ids(ctx);
    const events: InboundEvent[] = [];
    for (const media of await recentMedia(auth(ctx), igId, IMPORT_MEDIA)) {
      if (events.length >= limit) break;
      for (const comment of await mediaComments(auth(ctx), media.id, Math.min(50, limit))) {
        events.push(importedComment(igId, media, comment, undefined, ctx.now()));
        for (const reply of comment.replies?.data ?? [])
          events.push(importedComment(igId, media, reply, comment.id, ctx.now()));
      }
    }
    return events.slice(0, limit);
  },
};
