import type { InboundEvent } from '../inbound';
import { type ConnectorContext, ConnectorError } from '../types';
import { communityToken, vkApi } from './client';
import { commentEvent, messageEvent, type VkComment, type VkMessage } from './mapping';
import { withProfiles } from './profiles';
import { accountOf } from './webhook';

// The import on connect (docs/product/limits.md: up to 100): the latest message of each conversation (community token,
// messages.getConversations) and recent wall comments. wall.get / wall.getComments take user or service
// tokens only (VK schema), so the wall part needs the admin user token and is skipped without one.

const POSTS = 10;

interface Conversation {
  last_message?: VkMessage;
}

interface WallPost {
  id: number;
  text?: string;
  date: number;
}

interface WallComment extends VkComment {
  thread?: { items?: VkComment[] };
}

async function recentComments(ctx: ConnectorContext, limit: number): Promise<InboundEvent[]> {
  const token = ctx.credentials.user_token;
  if (!token || limit <= 0) return [];
  const api = vkApi(ctx, token);
  const account = accountOf(ctx);
  const owner = -account.groupId;
  const events: InboundEvent[] = [];
  try {
    const wall = await api<{ items?: WallPost[] }>('wall.get', { owner_id: owner, count: POSTS });
    for (const post of wall.items ?? []) {
      const answer = await api<{ items?: WallComment[] }>('wall.getComments', {
        owner_id: owner,
        post_id: post.id,
        count: 100,
        sort: 'desc',
        thread_items_count: 10,
      });
      const postInfo = { text: post.text ?? '', postedAt: new Date(post.date * 1000) };
      for (const comment of answer.items ?? []) {
        for (const c of [comment, ...(comment.thread?.items ?? [])]) {
          const event = commentEvent({ ...c, owner_id: owner, post_id: post.id }, 'wall', account, postInfo);
          if (event) events.push(event);
        }
      }
      if (events.length >= limit) break;
    }
  } catch (error) {
    // A refusal of the admin token (not an admin any more) leaves the wall out of the import only.
    if (!(error instanceof ConnectorError) || error.kind !== 'permanent') throw error;
  }
  return events.slice(0, limit);
}

export async function importRecentVk(ctx: ConnectorContext, limit: number): Promise<InboundEvent[]> {
  const account = accountOf(ctx);
  const api = vkApi(ctx, communityToken(ctx.credentials));
  const answer = await api<{ items?: Conversation[] }>('messages.getConversations', {
    count: Math.min(limit, 200),
  });
  const messages = (answer.items ?? []).flatMap((c) =>
    c.last_message ? [messageEvent(c.last_message, account, false)] : [],
  );
  const comments = await recentComments(ctx, limit - messages.length);
  return withProfiles(api, [...messages, ...comments].slice(0, limit), ctx.config.VK_API_URL);
}
