import {
  chatAnswerWireSchema,
  chatsAnswerWireSchema,
  itemAnswerWireSchema,
  itemsAnswerWireSchema,
} from '@otklik/shared';
import type { ZodApp } from '../../../http/auth';
import type { RouteContext } from './routes';
import { assignBody, bulkStatusBody, idParams, statusBody, tagsBody } from './schemas';
import { assignChat, assignItem, setChatsStatus, setChatTags, setItemsStatus, setItemTags } from './workflow';

const TAG = ['inbox'];

/** Status (docs/product/states.md), tags and assignment of items and chats. */
export function registerWorkflowRoutes(app: ZodApp, { deps, performer }: RouteContext) {
  app.put(
    '/items/status',
    {
      schema: {
        tags: TAG,
        summary: 'Set the status of several comments',
        body: bulkStatusBody,
        response: { 200: itemsAnswerWireSchema },
      },
    },
    async (req) => ({ items: await setItemsStatus(deps, performer(req), req.body.ids, req.body) }),
  );

  app.put(
    '/items/:id/status',
    {
      schema: {
        tags: TAG,
        summary: 'Set the status of a comment (closing without reply needs moderation rights)',
        params: idParams,
        body: statusBody,
        response: { 200: itemAnswerWireSchema },
      },
    },
    async (req) => {
      const [item] = await setItemsStatus(deps, performer(req), [req.params.id], req.body);
      return { item };
    },
  );

  app.put(
    '/chats/status',
    {
      schema: {
        tags: TAG,
        summary: 'Set the status of several chats',
        body: bulkStatusBody,
        response: { 200: chatsAnswerWireSchema },
      },
    },
    async (req) => ({ chats: await setChatsStatus(deps, performer(req), req.body.ids, req.body) }),
  );

  app.put(
    '/chats/:id/status',
    {
      schema: {
        tags: TAG,
        summary: 'Set the status of a chat',
        params: idParams,
        body: statusBody,
        response: { 200: chatAnswerWireSchema },
      },
    },
    async (req) => {
      const [chat] = await setChatsStatus(deps, performer(req), [req.params.id], req.body);
      return { chat };
    },
  );

  app.put(
    '/items/:id/tags',
    {
      schema: {
        tags: TAG,
        summary: "Replace a comment's tags",
        params: idParams,
        body: tagsBody,
        response: { 200: itemAnswerWireSchema },
      },
    },
    async (req) => ({ item: await setItemTags(deps, performer(req), req.params.id, req.body.tag_ids) }),
  );

  app.put(
    '/chats/:id/tags',
    {
      schema: {
        tags: TAG,
        summary: "Replace a chat's tags",
        params: idParams,
        body: tagsBody,
        response: { 200: chatAnswerWireSchema },
      },
    },
    async (req) => ({ chat: await setChatTags(deps, performer(req), req.params.id, req.body.tag_ids) }),
  );

  app.put(
    '/items/:id/assign',
    {
      schema: {
        tags: TAG,
        summary: 'Assign a comment to a member (or nobody)',
        params: idParams,
        body: assignBody,
        response: { 200: itemAnswerWireSchema },
      },
    },
    async (req) => ({ item: await assignItem(deps, performer(req), req.params.id, req.body.user_id) }),
  );

  app.put(
    '/chats/:id/assign',
    {
      schema: {
        tags: TAG,
        summary: 'Assign a chat to a member (or nobody)',
        params: idParams,
        body: assignBody,
        response: { 200: chatAnswerWireSchema },
      },
    },
    async (req) => ({ chat: await assignChat(deps, performer(req), req.params.id, req.body.user_id) }),
  );
}
