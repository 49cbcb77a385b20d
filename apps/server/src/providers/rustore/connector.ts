import type { InboundEvent } from '../inbound';
import {
  type Connector,
  type ConnectorContext,
  ConnectorError,
  type PollResult,
  type VerifyContext,
} from '../types';
import {
  editFeedback,
  listComments,
  parseKey,
  postFeedback,
  type RuStoreAuth,
  type RuStoreComment,
} from './client';

// RuStore (PROVIDERS.md §6d): reviews of one app, connected with a Public API key (its id and private
// key) and the package name. No push: comments are polled on an interval; the cursor is the newest
// `updatedAt` seen, and comments changed since carry an 'edited' change (text and stars), so an edited
// review updates its item. A reply is a "feedback" (at most 500 characters, the shared limits table),
// which can be edited. RuStore's API does not hide or delete users' reviews.

const NETWORK = 'RuStore';
const PAGE_SIZE = 100;
const MAX_PAGES = 50;
const FEEDBACK = 'feedback:';

function authOf(ctx: VerifyContext, credentials: Record<string, string>): RuStoreAuth {
  return {
    config: ctx.config,
    fetch: ctx.fetch,
    now: ctx.now,
    key: parseKey(credentials.key_id ?? '', credentials.private_key ?? ''),
  };
}

function packageOf(ctx: ConnectorContext): string {
  const name = ctx.credentials.package_name ?? ctx.object.externalId;
  if (!name)
    throw new ConnectorError('auth', 'RuStore: the package name is missing, reconnect the account', {
      reason: { key: 'failure.reconnect', params: { network: NETWORK } },
    });
  return name;
}

const millis = (c: RuStoreComment) => Date.parse(c.updatedAt ?? c.commentDate ?? '') || 0;

function commentEvents(packageName: string, c: RuStoreComment): InboundEvent[] {
  const id = String(c.commentId);
  const text = (c.commentText ?? '').trim();
  const appUrl = `https://www.rustore.ru/catalog/app/${encodeURIComponent(packageName)}`;
  const rating = c.appRating === undefined ? undefined : Math.round(c.appRating);
  return [
    {
      type: 'item',
      kind: 'review',
      externalId: id,
      post: { externalId: packageName, text: packageName, url: appUrl },
      // RuStore gives only a display name: each review is its own author.
      author: { externalId: `review:${id}`, name: c.userName ?? '' },
      text,
      rating,
      url: appUrl,
      createdAt: new Date(Date.parse(c.commentDate ?? '') || millis(c)),
    },
    {
      type: 'change',
      target: 'item',
      externalId: id,
      change: 'edited',
      text,
      rating,
      at: new Date(millis(c)),
    },
  ];
}

/** Comments changed at or after `since` (ms), newest first. */
async function changedComments(auth: RuStoreAuth, packageName: string, since: number, limit: number) {
  const found: RuStoreComment[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const { content, last } = await listComments(auth, packageName, page, PAGE_SIZE);
    const fresh = content.filter((c) => millis(c) >= since);
    found.push(...fresh);
    if (last || content.length === 0 || fresh.length < content.length || found.length >= limit) break;
  }
  return found.slice(0, limit);
}

async function poll(ctx: ConnectorContext, cursor: string | null): Promise<PollResult> {
  const packageName = packageOf(ctx);
  const since = Number(cursor) || 0;
  const comments = await changedComments(
    authOf(ctx, ctx.credentials),
    packageName,
    since,
    Number.POSITIVE_INFINITY,
  );
  const newest = Math.max(since, ...comments.map(millis));
  return {
    events: [...comments].reverse().flatMap((c) => commentEvents(packageName, c)),
    cursor: newest > 0 ? String(newest) : cursor,
    waitSeconds: ctx.config.RUSTORE_POLL_S,
  };
}

export const rustoreConnector: Connector = {
  id: 'rustore',

  /** The key parses, RuStore grants a token for it, and the app's comments can be read. */
  async verifyCredentials(ctx, input) {
    const credentials = {
      package_name: (input.package_name ?? '').trim(),
      key_id: (input.key_id ?? '').trim(),
      private_key: input.private_key ?? '',
    };
    await listComments(authOf(ctx, credentials), credentials.package_name, 0, 1);
    return {
      externalId: credentials.package_name,
      name: credentials.package_name,
      url: `https://www.rustore.ru/catalog/app/${encodeURIComponent(credentials.package_name)}`,
      credentials,
    };
  },

  /** Nothing to subscribe: being here makes the account a polled one. */
  async activate() {},

  poll: (ctx, cursor) => poll(ctx, cursor),

  async importRecent(ctx, limit) {
    const packageName = packageOf(ctx);
    const comments = await changedComments(authOf(ctx, ctx.credentials), packageName, 0, limit);
    return [...comments]
      .reverse()
      .flatMap((c) => commentEvents(packageName, c))
      .filter((e) => e.type === 'item');
  },

  async sendReply(ctx, target, content) {
    if (target.kind !== 'review')
      throw new ConnectorError('permanent', 'RuStore: only reviews can be answered', {
        reason: { key: 'failure.noThread', params: { network: NETWORK } },
      });
    const sent = await postFeedback(
      authOf(ctx, ctx.credentials),
      packageOf(ctx),
      target.externalId,
      content.text,
    );
    return { externalId: `${FEEDBACK}${sent.id}` };
  },

  async editReply(ctx, reply, content) {
    if (!reply.externalId.startsWith(FEEDBACK))
      throw new ConnectorError('permanent', `RuStore: not a reply of ours: ${reply.externalId}`, {
        reason: { key: 'failure.ownReplyOnly' },
      });
    await editFeedback(
      authOf(ctx, ctx.credentials),
      packageOf(ctx),
      reply.externalId.slice(FEEDBACK.length),
      content.text,
    );
  },
};
