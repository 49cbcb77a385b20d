import {
  type Ability,
  chatDetailsWireSchema,
  chatWireSchema,
  historyWireSchema,
  inboxViewCountsWireSchema,
  itemDetailsWireSchema,
  itemWireSchema,
  type MessageKey,
  messageWireSchema,
  pageWireSchema,
  searchWireSchema,
} from '@otklik/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../../db/client';
import { type Authenticate, signedInScope } from '../../../http/auth';
import { sendPrebuiltJson } from '../../../http/prebuilt-json';
import { AppError } from '../../../lib/errors';
import type { AppDeps } from '../../deps';
import { markMentionsSeen } from '../../notes/service';
import type { ServerActor } from '../../spaces/actor';
import { chatOpened, itemOpened } from '../failures/returned';
import { registerInboxCounters } from './counters';
import { chatHistory, itemHistory, recordView } from './history';
import {
  chatListQuery,
  foldSource,
  idParams,
  itemListQuery,
  messagePageQuery,
  searchQuery,
} from './list-params';
import { presentMessage, presentPost } from './presenter';
import {
  findChatMessages,
  findChatsJson,
  findItemsJson,
  findItemThread,
  getItemById,
  getPost,
  markChatRead,
  searchItems,
  searchMessages,
} from './queries';
import { registerInboxLockTargets } from './read-locks';
import { presentChats, presentItemHits, presentItems, presentMessageHits } from './read-present';
import { getScopedChat, getScopedItem, type InboxScope, scopeFor } from './scope';
import { readViewCounts } from './views';

const TAG = ['inbox'];

/** The scope of a list; a caller who may see nothing of the kind gets the No-access answer (docs/product/errors.md 403). */
async function listScope(
  db: Db,
  actor: ServerActor,
  ability: Ability,
  denied: MessageKey,
): Promise<InboxScope> {
  const scope = await scopeFor(db, actor, ability);
  if (scope.spaces.size === 0) throw new AppError(403, denied);
  return scope;
}

/**
 * Reading the inbox: comment and chat lists with filters and keyset pagination, one item with its
 * thread, one chat with its messages, search. Also registers the inbox's badge counters and socket
 * lock targets, which belong to the same data.
 */
export async function registerInboxModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    registerInboxCounters();
    registerInboxLockTargets(root.hub, db);
    const reuse = (req: FastifyRequest) => ({ cache: root.listPages, snapshot: req.auth?.snapshot });
    /** Opening a conversation: the view is recorded and the caller's mentions in it are seen. */
    const openedBy = async (
      actor: ServerActor,
      row: { id: number; spaceId: number; objectId: number },
      kind: 'item' | 'chat',
    ) => {
      await recordView(db, actor.userId, row, kind);
      await markMentionsSeen({ db, bus: deps.bus }, actor.userId, { kind, id: row.id, spaceId: row.spaceId });
    };

    app.get(
      '/items',
      {
        schema: {
          tags: TAG,
          summary: 'Comments, reviews and mentions: filters, newest first, keyset pages (before=next)',
          querystring: itemListQuery,
          response: { 200: pageWireSchema(itemWireSchema) },
        },
      },
      async (req, reply) =>
        sendPrebuiltJson(
          reply,
          await findItemsJson(
            deps.database,
            await listScope(db, req.actor, 'items.view', 'error.noAccess'),
            foldSource(req.query),
            reuse(req),
          ),
        ),
    );

    app.get(
      '/items/:id',
      {
        schema: {
          tags: TAG,
          summary: 'One item with its post, parent, replies (ours included) and author',
          params: idParams,
          response: { 200: itemDetailsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const item = await itemOpened(
          db,
          deps.bus,
          await getScopedItem(db, actor, req.params.id, 'items.view'),
          req.auth!.user.id,
        );
        await openedBy(actor, item, 'item');
        const [post, parentRow, thread] = await Promise.all([
          item.postId ? getPost(db, item.postId) : null,
          item.parentId ? getItemById(db, item.parentId) : null,
          findItemThread(db, item),
        ]);
        // Threads are linked within one account (ingest.ts), so the parent shares the item's scope.
        const parent = parentRow && parentRow.objectId === item.objectId ? parentRow : null;
        const [presented, ...others] = await presentItems(db, [item, ...(parent ? [parent] : []), ...thread]);
        const presentedParent = parent ? others[0]! : null;
        return {
          item: presented!,
          post: post ? presentPost(post) : null,
          parent: presentedParent,
          thread: parent ? others.slice(1) : others,
          author: presented!.author,
        };
      },
    );

    app.get(
      '/items/:id/history',
      {
        schema: {
          tags: TAG,
          summary:
            'What happened to one item, oldest first, by whom: received, replied, tagged, assigned, statuses, Direct replies',
          params: idParams,
          response: { 200: historyWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const item = await getScopedItem(db, actor, req.params.id, 'items.view');
        return { items: await itemHistory(db, item) };
      },
    );

    app.get(
      '/chats/:id/history',
      {
        schema: {
          tags: TAG,
          summary: 'What happened to one chat, oldest first, by whom',
          params: idParams,
          response: { 200: historyWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const chat = await getScopedChat(db, actor, req.params.id, 'messages.view');
        return { items: await chatHistory(db, chat) };
      },
    );

    app.get(
      '/counts/views',
      {
        schema: {
          tags: TAG,
          summary:
            'The inbox views: All, Mine and Unassigned comments and chats waiting (default statuses), and Mentions of me',
          response: { 200: inboxViewCountsWireSchema },
        },
      },
      async (req) => readViewCounts(db, req.actor),
    );

    app.get(
      '/chats',
      {
        schema: {
          tags: TAG,
          summary: 'Private-message chats: filters, latest message first, keyset pages (before=next)',
          querystring: chatListQuery,
          response: { 200: pageWireSchema(chatWireSchema) },
        },
      },
      async (req, reply) => {
        const scope = await listScope(db, req.actor, 'messages.view', 'error.noMessagesAccess');
        return sendPrebuiltJson(
          reply,
          await findChatsJson(deps.database, scope, foldSource(req.query), reuse(req)),
        );
      },
    );

    app.get(
      '/chats/:id',
      {
        schema: {
          tags: TAG,
          summary: 'One chat with its customer',
          params: idParams,
          response: { 200: chatDetailsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const chat = await chatOpened(
          db,
          deps.bus,
          await getScopedChat(db, actor, req.params.id, 'messages.view'),
          req.auth!.user.id,
        );
        await openedBy(actor, chat, 'chat');
        const [presented] = await presentChats(db, [chat]);
        return { chat: presented!, author: presented!.author };
      },
    );

    app.get(
      '/chats/:id/messages',
      {
        schema: {
          tags: TAG,
          summary:
            'Messages of a chat, newest page first, each page oldest → newest; the newest page marks it read',
          params: idParams,
          querystring: messagePageQuery,
          response: { 200: pageWireSchema(messageWireSchema) },
        },
      },
      async (req) => {
        const { actor } = req;
        const chat = await getScopedChat(db, actor, req.params.id, 'messages.view');
        const page = await findChatMessages(db, chat.id, req.query);
        // Opening the latest messages is reading the chat; paging back through history is not news.
        if (!req.query.before) {
          const read = await markChatRead(db, chat.id);
          if (read) {
            await deps.bus.publish({
              type: 'chats.read',
              spaceId: read.spaceId,
              payload: { chat: (await presentChats(db, [read]))[0] },
              cause: { kind: 'user', id: actor.userId },
            });
          }
        }
        return { items: page.rows.map(presentMessage), next: page.next };
      },
    );

    app.get(
      '/search',
      {
        schema: {
          tags: TAG,
          summary: 'Full-text search (Russian and English) over comments and private messages',
          querystring: searchQuery,
          response: { 200: searchWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const [itemScope, messageScope] = await Promise.all([
          scopeFor(db, actor, 'items.view'),
          scopeFor(db, actor, 'messages.view'),
        ]);
        if (itemScope.spaces.size === 0 && messageScope.spaces.size === 0)
          throw new AppError(403, 'error.noAccess');
        const { q, limit } = req.query;
        const [itemRows, messageRows] = await Promise.all([
          itemScope.spaces.size > 0 ? searchItems(db, itemScope, q, limit) : [],
          messageScope.spaces.size > 0 ? searchMessages(db, messageScope, q, limit) : [],
        ]);
        return { items: await presentItemHits(db, itemRows), messages: presentMessageHits(messageRows) };
      },
    );
  });
}
