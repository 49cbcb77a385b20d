import { and, eq } from 'drizzle-orm';
import { sandboxEntries } from '../../db/schema';
import { randomToken, sha256 } from '../../lib/crypto';
import {
  type Connector,
  type ConnectorContext,
  ConnectorError,
  type ItemRef,
  type OutgoingContent,
} from '../types';
import {
  ACCOUNT_AUTHOR_ID,
  entryIdOf,
  externalIdOf,
  getEntry,
  recentEntries,
  toInboundEvents,
} from './mapping';
import { seedSandbox } from './seed';

// The sandbox network (provider `sandbox`): its "servers" are the sandbox_entries table, so the
// connector writes there the way other connectors call a network's API, and the customer page shows it.

/** The sandbox has no attachment store: files travel as links under the text. */
function bodyOf(content: OutgoingContent): string {
  const links = content.attachments.map((a) => a.url);
  return [content.text, ...links].filter(Boolean).join('\n');
}

async function existingEntry(ctx: ConnectorContext, externalId: string) {
  const entry = await getEntry(ctx.db, ctx.object.id, entryIdOf(externalId));
  if (!entry)
    throw new ConnectorError('permanent', 'Not in the sandbox', {
      reason: { key: 'failure.sandboxNotFound' },
    });
  return entry;
}

async function insertFromAccount(
  ctx: ConnectorContext,
  values: { kind: string; parentId?: number | null; peer?: string | null; text: string },
) {
  const [row] = await ctx.db
    .insert(sandboxEntries)
    .values({
      objectId: ctx.object.id,
      kind: values.kind,
      parentId: values.parentId ?? null,
      peer: values.peer ?? null,
      fromAccount: true,
      authorName: ctx.object.name,
      authorId: ACCOUNT_AUTHOR_ID,
      text: values.text,
      createdAt: ctx.now(),
    })
    .returning();
  return { externalId: externalIdOf(row!.id) };
}

async function setFlags(
  ctx: ConnectorContext,
  item: ItemRef,
  set: Partial<typeof sandboxEntries.$inferInsert>,
) {
  const entry = await existingEntry(ctx, item.externalId);
  await ctx.db
    .update(sandboxEntries)
    .set(set)
    .where(and(eq(sandboxEntries.objectId, ctx.object.id), eq(sandboxEntries.id, entry.id)));
}

export const sandboxConnector: Connector = {
  id: 'sandbox',

  async connect(ctx) {
    const token = randomToken(24);
    await seedSandbox(ctx.db, ctx.object, ctx.now());
    return {
      credentials: { token },
      ingestTokenDigest: sha256(token),
      reveal: { sandbox_url: sandboxUrl(ctx.config.appUrl, token) },
    };
  },

  async sendReply(ctx, target, content) {
    const parent = await existingEntry(ctx, target.externalId);
    if (parent.deleted)
      throw new ConnectorError('permanent', 'The comment was deleted', {
        reason: { key: 'failure.commentDeleted' },
      });
    return insertFromAccount(ctx, { kind: 'comment', parentId: parent.id, text: bodyOf(content) });
  },

  async sendDirect(ctx, target, content) {
    if (!target.authorExternalId)
      throw new ConnectorError('permanent', 'The comment has no author', {
        reason: { key: 'failure.noAuthor', params: { network: 'Sandbox' } },
      });
    return insertFromAccount(ctx, { kind: 'message', peer: target.authorExternalId, text: bodyOf(content) });
  },

  async sendMessage(ctx, chat, content) {
    return insertFromAccount(ctx, { kind: 'message', peer: chat.externalId, text: bodyOf(content) });
  },

  deleteItem: (ctx, item) => setFlags(ctx, item, { deleted: true }),
  restoreItem: (ctx, item) => setFlags(ctx, item, { deleted: false }),
  hideItem: (ctx, item, hidden) => setFlags(ctx, item, { hidden }),
  likeItem: (ctx, item, liked) => setFlags(ctx, item, { liked }),

  async react(ctx, target, value) {
    const externalId = target.kind === 'item' ? target.item.externalId : target.messageExternalId;
    const entry = await existingEntry(ctx, externalId);
    await ctx.db.update(sandboxEntries).set({ reaction: value }).where(eq(sandboxEntries.id, entry.id));
  },

  async editReply(ctx, reply, content) {
    const entry = await existingEntry(ctx, reply.externalId);
    if (!entry.fromAccount)
      throw new ConnectorError('permanent', 'Not our reply', { reason: { key: 'failure.ownReplyOnly' } });
    await ctx.db
      .update(sandboxEntries)
      .set({ text: bodyOf(content), editedAt: ctx.now() })
      .where(eq(sandboxEntries.id, entry.id));
  },

  // A ban is an entry of its own (kind block/unblock); the page lists it and refuses the customer's posts.
  async blockAuthor(ctx, author, block) {
    await ctx.db.insert(sandboxEntries).values({
      objectId: ctx.object.id,
      kind: block.blocked ? 'block' : 'unblock',
      fromAccount: true,
      authorName: ctx.object.name,
      authorId: author.externalId,
      text: block.until?.toISOString() ?? '',
      createdAt: ctx.now(),
    });
  },

  async importRecent(ctx, limit) {
    return toInboundEvents(ctx.db, ctx.object, await recentEntries(ctx.db, ctx.object.id, limit));
  },
};

/** The public customer page of a sandbox account (a web route; the API behind it is /v1/sandbox/:token). */
export function sandboxUrl(appUrl: string, token: string): string {
  return `${appUrl}/sandbox/${token}`;
}
