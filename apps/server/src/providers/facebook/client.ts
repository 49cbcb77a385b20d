import type { Config } from '../../lib/config';
import { badAnswer } from '../http';
import { type GraphAuth, graphCall } from './meta';

// Facebook Page calls over Graph (PROVIDERS.md §4a Messenger, §4b feed comments), base URL from
// FACEBOOK_GRAPH_URL so tests point it at the emulator.

export const NETWORK = 'Facebook';

export function graphBase(config: Config): string {
  return `${config.FACEBOOK_GRAPH_URL.replace(/\/+$/, '')}/${config.FACEBOOK_API_VERSION}`;
}

export function pageAuth(ctx: { config: Config; fetch: typeof fetch }, accessToken: string): GraphAuth {
  return { base: graphBase(ctx.config), fetch: ctx.fetch, accessToken, network: NETWORK };
}

export interface GraphPage {
  id: string;
  name: string;
  access_token?: string;
  tasks?: string[];
  picture?: { data?: { url?: string } };
}

export interface GraphComment {
  id: string;
  message?: string;
  created_time?: string;
  from?: { id: string; name?: string };
  parent?: { id: string };
  permalink_url?: string;
  attachment?: { type?: string; url?: string; media?: { image?: { src?: string } } };
}

export interface GraphPost {
  id: string;
  message?: string;
  created_time?: string;
  permalink_url?: string;
}

/** Code → short-lived user token → long-lived user token (PROVIDERS §4; 60 days). */
export async function exchangeCode(
  ctx: { config: Config; fetch: typeof fetch },
  opts: { code: string; redirectUri: string },
): Promise<string> {
  const app = pageAuth(ctx, '');
  const client = {
    client_id: ctx.config.FACEBOOK_CLIENT_ID ?? '',
    client_secret: ctx.config.FACEBOOK_CLIENT_SECRET ?? '',
  };
  const short = await graphCall<{ access_token: string }>(app, 'GET', 'oauth/access_token', {
    query: { ...client, redirect_uri: opts.redirectUri, code: opts.code },
  });
  const long = await graphCall<{ access_token: string }>(app, 'GET', 'oauth/access_token', {
    query: { ...client, grant_type: 'fb_exchange_token', fb_exchange_token: short.access_token },
  });
  return long.access_token;
}

export async function grantedPermissions(auth: GraphAuth): Promise<Set<string>> {
  const answer = await graphCall<{ data?: Array<{ permission: string; status: string }> }>(
    auth,
    'GET',
    'me/permissions',
  );
  return new Set((answer.data ?? []).filter((p) => p.status === 'granted').map((p) => p.permission));
}

/** The Pages the user chose in the dialog, each with its Page token (long-lived when the user's is). */
export async function listPages(auth: GraphAuth): Promise<GraphPage[]> {
  const answer = await graphCall<{ data?: GraphPage[] }>(auth, 'GET', 'me/accounts', {
    query: { fields: 'id,name,access_token,tasks,picture' },
  });
  return answer.data ?? [];
}

/** Installs the app on the Page for its webhooks (PROVIDERS §4 "Subscribing"). */
export function subscribeApp(auth: GraphAuth, pageId: string, fields: string[]) {
  return graphCall<{ success: boolean }>(auth, 'POST', `${encodeURIComponent(pageId)}/subscribed_apps`, {
    query: { subscribed_fields: fields.join(',') },
  });
}

export function unsubscribeApp(auth: GraphAuth, pageId: string) {
  return graphCall<{ success: boolean }>(auth, 'DELETE', `${encodeURIComponent(pageId)}/subscribed_apps`);
}

/** `POST /{post-or-comment-id}/comments` → the new comment's id. */
export async function postComment(
  auth: GraphAuth,
  targetId: string,
  message: string,
  attachmentUrl?: string,
) {
  const answer = await graphCall<{ id?: string }>(auth, 'POST', `${encodeURIComponent(targetId)}/comments`, {
    body: { message, ...(attachmentUrl ? { attachment_url: attachmentUrl } : {}) },
  });
  // Graph always answers a created comment with its id: JSON without it is not Graph's answer.
  if (!answer.id) throw badAnswer(NETWORK, 'a created comment without its id');
  return answer.id;
}

/** `POST /{comment-id}` with `message` (edit own) or `is_hidden` (hide/unhide). */
export function updateComment(auth: GraphAuth, commentId: string, fields: Record<string, unknown>) {
  return graphCall<{ success: boolean }>(auth, 'POST', encodeURIComponent(commentId), { body: fields });
}

export function deleteObject(auth: GraphAuth, objectId: string) {
  return graphCall<{ success: boolean }>(auth, 'DELETE', encodeURIComponent(objectId));
}

export function setLike(auth: GraphAuth, objectId: string, liked: boolean) {
  return graphCall<{ success: boolean }>(
    auth,
    liked ? 'POST' : 'DELETE',
    `${encodeURIComponent(objectId)}/likes`,
  );
}

/** Send API (§4a): `POST /{page-id}/messages`; `recipient` is `{id: PSID}` or `{comment_id}` (private reply). */
export async function sendPageMessage(
  auth: GraphAuth,
  pageId: string,
  recipient: { id: string } | { comment_id: string },
  message: Record<string, unknown>,
) {
  return (await sendPageMessageTo(auth, pageId, recipient, message)).id;
}

/**
 * The same call, with who received it: a private reply (`{comment_id}`) answers with the commenter's
 * page-scoped id (PSID), which is the conversation's id from then on — not the id the comment carried.
 */
export async function sendPageMessageTo(
  auth: GraphAuth,
  pageId: string,
  recipient: { id: string } | { comment_id: string },
  message: Record<string, unknown>,
): Promise<{ id: string | null; recipientId: string | null }> {
  const answer = await graphCall<{ recipient_id?: string; message_id?: string }>(
    auth,
    'POST',
    `${encodeURIComponent(pageId)}/messages`,
    { body: { recipient, ...('id' in recipient ? { messaging_type: 'RESPONSE' } : {}), message } },
  );
  // The Send API always answers with the message's id: JSON without it is not Meta's answer.
  if (!answer.message_id) throw badAnswer(auth.network, 'a sent message without its message_id');
  return { id: answer.message_id, recipientId: answer.recipient_id ?? null };
}

export async function recentPosts(auth: GraphAuth, pageId: string, limit: number): Promise<GraphPost[]> {
  const answer = await graphCall<{ data?: GraphPost[] }>(auth, 'GET', `${encodeURIComponent(pageId)}/feed`, {
    query: { fields: 'id,message,created_time,permalink_url', limit: String(limit) },
  });
  return answer.data ?? [];
}

/** Comments and replies of a post, newest first, in one flat list (`filter=stream`). */
export async function postComments(auth: GraphAuth, postId: string, limit: number): Promise<GraphComment[]> {
  const answer = await graphCall<{ data?: GraphComment[] }>(
    auth,
    'GET',
    `${encodeURIComponent(postId)}/comments`,
    {
      query: {
        fields: 'id,message,created_time,from,parent,permalink_url,attachment',
        filter: 'stream',
        order: 'reverse_chronological',
        limit: String(limit),
      },
    },
  );
  return answer.data ?? [];
}
