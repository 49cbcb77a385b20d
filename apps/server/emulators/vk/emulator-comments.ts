import { SURFACES, type Surface } from '../../src/providers/vk/ids';
import { type MethodContext, type MethodHandler, num } from './emulator-groups';
import {
  commentKey,
  type EmulatedGroup,
  fault,
  postKey,
  requireAdminUser,
  type StoredComment,
} from './emulator-state';

// TEST-ONLY. Emulated comments under wall posts, photos and videos (PROVIDERS §2): createComment with
// guid idempotency (wall: community or user token; photos/video: user token), and the user-token-only
// editComment (43200 s window, docs/product/limits.md), deleteComment, restoreComment, reportComment and likes.add/delete.

/** docs/product/limits.md "Edit windows: VK comment 43200 s"; VK's own error for a late edit is UNCONFIRMED (7 here). */
export const COMMENT_EDIT_WINDOW_S = 43_200;

export function commentObject(c: StoredComment) {
  const field = SURFACES[c.surface].targetField;
  return {
    id: c.id,
    from_id: c.from_id,
    date: c.date,
    text: c.text,
    owner_id: c.owner_id,
    [field]: c.target,
    ...(c.surface === 'wall' ? { post_owner_id: c.owner_id } : { [`${c.surface}_owner_id`]: c.owner_id }),
    parents_stack: c.parents_stack,
    reply_to_comment: c.reply_to_comment ?? null,
    thread: { count: 0 },
    attachments: [],
  };
}

export function ensurePost(group: EmulatedGroup, surface: Surface, id: number, text = '', date = 0) {
  const key = postKey(surface, -group.id, id);
  const existing = group.posts.get(key);
  if (existing) return existing;
  const post = { id, text, date };
  group.posts.set(key, post);
  return post;
}

export function storeComment(
  group: EmulatedGroup,
  c: { surface: Surface; target: number; fromId: number; text: string; date: number; replyTo?: number },
): StoredComment {
  const owner = -group.id;
  const parent = c.replyTo ? findComment(group, c.surface, owner, c.replyTo) : undefined;
  if (parent && parent.target !== c.target) throw fault(100, 'reply_to_comment is invalid');
  group.commentSeq += 1;
  const stored: StoredComment = {
    surface: c.surface,
    owner_id: owner,
    id: group.commentSeq,
    target: c.target,
    from_id: c.fromId,
    text: c.text,
    date: c.date,
    reply_to_comment: parent?.id,
    // VK threads are two levels deep: a reply sits in its top-level comment's thread.
    parents_stack: parent ? [parent.parents_stack[0] ?? parent.id] : [],
    deleted: false,
    likes: new Set(),
  };
  group.comments.set(commentKey(c.surface, owner, stored.id), stored);
  return stored;
}

export function findComment(group: EmulatedGroup, surface: Surface, owner: number, id: number) {
  const found = group.comments.get(commentKey(surface, owner, id));
  if (!found) throw fault(100, 'comment_id is invalid');
  return found;
}

export function deletedObject(c: StoredComment, deleterId: number) {
  const field = SURFACES[c.surface].targetField;
  // PROVIDERS §2: the schema names the deleter user_id, vk-io deleter_id — both are sent.
  return { owner_id: c.owner_id, id: c.id, [field]: c.target, deleter_id: deleterId, user_id: deleterId };
}

const eventOf = (surface: Surface, action: string) => `${SURFACES[surface].eventPrefix}${action}`;

function commentTarget(ctx: MethodContext, surface: Surface) {
  const owner = num(ctx, 'owner_id');
  const group = ctx.state.group(owner);
  return { group, owner, comment: findComment(group, surface, owner, num(ctx, 'comment_id')) };
}

function surfaceMethods(surface: Surface): Record<string, MethodHandler> {
  const methods = SURFACES[surface];
  return {
    [methods.create]: (ctx) => {
      const group = ctx.state.group(num(ctx, 'owner_id'));
      const { caller } = ctx;
      if (methods.replyNeedsUser) requireAdminUser(caller, group);
      const target = num(ctx, methods.targetField);
      if (!group.posts.has(postKey(surface, -group.id, target)))
        throw fault(100, `${methods.targetField} is invalid`);
      const guidKey = ctx.params.guid ? `${surface}:${ctx.params.guid}` : undefined;
      const repeated = guidKey ? group.guids.get(guidKey) : undefined;
      if (repeated) return { comment_id: repeated.id, parents_stack: repeated.parents_stack };
      if (!ctx.params.message && !ctx.params.attachments) throw fault(100, 'message is undefined');
      const asGroup = caller.kind === 'group' || Boolean(Number(ctx.params.from_group ?? 0));
      if (asGroup && caller.kind === 'user' && !group.admins.has(caller.userId)) throw fault(15);
      const stored = storeComment(group, {
        surface,
        target,
        fromId: asGroup ? -group.id : caller.kind === 'user' ? caller.userId : -group.id,
        text: ctx.params.message ?? '',
        date: ctx.state.unix(),
        replyTo: ctx.params.reply_to_comment ? num(ctx, 'reply_to_comment') : undefined,
      });
      if (guidKey) group.guids.set(guidKey, stored);
      ctx.echo(group.id, eventOf(surface, 'new'), commentObject(stored));
      return { comment_id: stored.id, parents_stack: stored.parents_stack };
    },

    [methods.edit]: (ctx) => {
      const { group, comment } = commentTarget(ctx, surface);
      const userId = requireAdminUser(ctx.caller, group);
      if (comment.deleted) throw fault(100, 'comment is deleted');
      if (comment.from_id !== -group.id && comment.from_id !== userId) throw fault(15);
      if (ctx.state.unix() - comment.date > COMMENT_EDIT_WINDOW_S) throw fault(7);
      comment.text = ctx.params.message ?? comment.text;
      ctx.echo(group.id, eventOf(surface, 'edit'), commentObject(comment));
      return 1;
    },

    [methods.remove]: (ctx) => {
      const { group, comment } = commentTarget(ctx, surface);
      const userId = requireAdminUser(ctx.caller, group);
      if (!comment.deleted) {
        comment.deleted = true;
        ctx.echo(group.id, eventOf(surface, 'delete'), deletedObject(comment, userId));
      }
      return 1;
    },

    // reportComment: any user may complain (a user token; the community token gets 27); reason 0–8.
    [methods.report]: (ctx) => {
      if (ctx.caller.kind !== 'user') throw fault(27);
      const { comment } = commentTarget(ctx, surface);
      const reason = Number(ctx.params.reason ?? 0);
      if (!Number.isInteger(reason) || reason < 0 || reason > 8) throw fault(100, 'reason is invalid');
      comment.reports = [...(comment.reports ?? []), { userId: ctx.caller.userId, reason }];
      return 1;
    },

    [methods.restore]: (ctx) => {
      const { group, comment } = commentTarget(ctx, surface);
      requireAdminUser(ctx.caller, group);
      if (!comment.deleted) throw fault(100, 'comment is not deleted');
      comment.deleted = false;
      ctx.echo(group.id, eventOf(surface, 'restore'), commentObject(comment));
      return 1;
    },
  };
}

function likeTarget(ctx: MethodContext) {
  const surface = (Object.keys(SURFACES) as Surface[]).find((s) => SURFACES[s].likeType === ctx.params.type);
  if (!surface) throw fault(100, 'type is invalid');
  const owner = num(ctx, 'owner_id');
  const group = ctx.state.group(owner);
  const userId = requireAdminUser(ctx.caller, group);
  return { comment: findComment(group, surface, owner, num(ctx, 'item_id')), userId };
}

export const commentMethods: Record<string, MethodHandler> = {
  ...surfaceMethods('wall'),
  ...surfaceMethods('photo'),
  ...surfaceMethods('video'),

  'likes.add': (ctx) => {
    const { comment, userId } = likeTarget(ctx);
    comment.likes.add(userId);
    return { likes: comment.likes.size };
  },

  'likes.delete': (ctx) => {
    const { comment, userId } = likeTarget(ctx);
    comment.likes.delete(userId);
    return { likes: comment.likes.size };
  },

  // User or service tokens only (VK schema): a community token gets 27.
  'wall.get': (ctx) => {
    const group = ctx.state.group(num(ctx, 'owner_id'));
    if (ctx.caller.kind === 'group') throw fault(27);
    const posts = [...group.posts.entries()]
      .filter(([key]) => key.startsWith('wall:'))
      .map(([, post]) => ({
        id: post.id,
        owner_id: -group.id,
        from_id: -group.id,
        date: post.date,
        text: post.text,
      }))
      .sort((a, b) => b.id - a.id);
    return { count: posts.length, items: posts.slice(0, Number(ctx.params.count ?? 20)) };
  },

  'wall.getComments': (ctx) => {
    const group = ctx.state.group(num(ctx, 'owner_id'));
    if (ctx.caller.kind === 'group') throw fault(27);
    const postId = num(ctx, 'post_id');
    const all = [...group.comments.values()].filter(
      (c) => c.surface === 'wall' && c.target === postId && !c.deleted,
    );
    const items = all
      .filter((c) => c.parents_stack.length === 0)
      .map((c) => {
        const thread = all.filter((r) => r.parents_stack[0] === c.id).map(commentObject);
        return { ...commentObject(c), thread: { count: thread.length, items: thread } };
      });
    return { count: items.length, items: items.slice(0, Number(ctx.params.count ?? 10)) };
  },
};
