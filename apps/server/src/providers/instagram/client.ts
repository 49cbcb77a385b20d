import type { Config } from '../../lib/config';
import { graphBase } from '../facebook/client';
import { type GraphAuth, graphCall } from '../facebook/meta';
import { badAnswer } from '../http';

// Instagram calls over Graph with the linked Page's token (PROVIDERS.md §4c, "Instagram API with Facebook
// Login": host graph.facebook.com, the same version and app as the Facebook Page connector).

export const NETWORK = 'Instagram';

export function igAuth(ctx: { config: Config; fetch: typeof fetch }, accessToken: string): GraphAuth {
  return { base: graphBase(ctx.config), fetch: ctx.fetch, accessToken, network: NETWORK };
}

const id = (value: string) => encodeURIComponent(value);

/** A created comment's id: Graph always sends it, so JSON without it is not Graph's answer. */
function createdId(answer: { id?: string }) {
  if (!answer.id) throw badAnswer(NETWORK, 'a created comment without its id');
  return answer.id;
}

/** The professional account linked to a Page, if any (`GET /{page-id}?fields=instagram_business_account`). */
export async function linkedAccount(auth: GraphAuth, pageId: string): Promise<string | null> {
  const answer = await graphCall<{ instagram_business_account?: { id: string } }>(auth, 'GET', id(pageId), {
    query: { fields: 'instagram_business_account' },
  });
  return answer.instagram_business_account?.id ?? null;
}

export interface IgProfile {
  id: string;
  username?: string;
  name?: string;
  profile_picture_url?: string;
}

export function profile(auth: GraphAuth, igId: string) {
  return graphCall<IgProfile>(auth, 'GET', id(igId), {
    query: { fields: 'id,username,name,profile_picture_url' },
  });
}

/** `POST /{ig-comment-id}/replies?message=…` → the new comment's id (a reply to a reply joins the top one). */
export async function replyToComment(auth: GraphAuth, commentId: string, message: string) {
  const answer = await graphCall<{ id?: string }>(auth, 'POST', `${id(commentId)}/replies`, {
    query: { message },
  });
  return createdId(answer);
}

/** Reply to an @mention in someone else's comment: `POST /{ig-user-id}/mentions`. */
export async function replyToMention(
  auth: GraphAuth,
  igId: string,
  target: { commentId?: string; mediaId: string },
  message: string,
) {
  const answer = await graphCall<{ id?: string }>(auth, 'POST', `${id(igId)}/mentions`, {
    query: {
      ...(target.commentId ? { comment_id: target.commentId } : {}),
      media_id: target.mediaId,
      message,
    },
  });
  return createdId(answer);
}

/** `POST /{ig-comment-id}?hide=true|false`. */
export function hideComment(auth: GraphAuth, commentId: string, hidden: boolean) {
  return graphCall<{ success: boolean }>(auth, 'POST', id(commentId), { query: { hide: String(hidden) } });
}

export function deleteComment(auth: GraphAuth, commentId: string) {
  return graphCall<{ success: boolean }>(auth, 'DELETE', id(commentId));
}

interface Mentioned {
  text?: string;
  caption?: string;
  username?: string;
  timestamp?: string;
}

/** The text and author of a mention (`mentioned_comment` / `mentioned_media` of the account). */
export async function mentionDetails(
  auth: GraphAuth,
  igId: string,
  mention: { media_id: string; comment_id?: string },
): Promise<{ text?: string; username?: string; timestamp?: string }> {
  const fields = mention.comment_id
    ? `mentioned_comment.comment_id(${mention.comment_id}){id,text,username,timestamp}`
    : `mentioned_media.media_id(${mention.media_id}){id,caption,username,timestamp}`;
  const answer = await graphCall<{ mentioned_comment?: Mentioned; mentioned_media?: Mentioned }>(
    auth,
    'GET',
    id(igId),
    { query: { fields } },
  );
  const found = answer.mentioned_comment ?? answer.mentioned_media;
  return { text: found?.text ?? found?.caption, username: found?.username, timestamp: found?.timestamp };
}

export interface IgMediaRow {
  id: string;
  caption?: string;
  permalink?: string;
  timestamp?: string;
}

export interface IgCommentRow {
  id: string;
  text?: string;
  timestamp?: string;
  username?: string;
  from?: { id: string; username?: string };
  replies?: { data?: IgCommentRow[] };
}

/** The account's latest media, newest first (`GET /{ig-user-id}/media`). */
export async function recentMedia(auth: GraphAuth, igId: string, limit: number): Promise<IgMediaRow[]> {
  const answer = await graphCall<{ data?: IgMediaRow[] }>(auth, 'GET', `${id(igId)}/media`, {
    query: { fields: 'id,caption,permalink,timestamp', limit: String(limit) },
  });
  return answer.data ?? [];
}

/** Top-level comments of a media with their replies (`GET /{ig-media-id}/comments`). */
export async function mediaComments(
  auth: GraphAuth,
  mediaId: string,
  limit: number,
): Promise<IgCommentRow[]> {
  const answer = await graphCall<{ data?: IgCommentRow[] }>(auth, 'GET', `${id(mediaId)}/comments`, {
    query: {
      fields: 'id,text,timestamp,username,from,replies{id,text,timestamp,username,from}',
      limit: String(limit),
    },
  });
  return answer.data ?? [];
}
