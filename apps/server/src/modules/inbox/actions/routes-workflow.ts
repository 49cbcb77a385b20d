import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RouteContext } from './routes';
import { assignBody, bulkStatusBody, idParams, statusBody, tagsBody } from './schemas';
import { assignChat, assignItem, setChatsStatus, setChatTags, setItemsStatus, setItemTags } from './workflow';

const TAG = ['inbox'];
const security = [{ bearer: [] }];

/** Status (docs/product/states.md), tags and assignment of items and chats. */
export function registerWorkflowRoutes(
  root: FastifyInstance,
  { deps, authenticated, performer }: RouteContext,
) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.put(
    '/items/status',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security, summary: 'Set the status of several comments', body: bulkStatusBody },
    },
    async (req) => ({ items: await setItemsStatus(deps, await performer(req), req.body.ids, req.body) }),
  );

  app.put(
    '/items/:id/status',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security,
        summary: 'Set the status of a comment (closing without reply needs moderation rights)',
        params: idParams,
        body: statusBody,
      },
    },
    async (req) => {
      const [item] = await setItemsStatus(deps, await performer(req), [req.params.id], req.body);
      return { item };
    },
  );

  app.put(
    '/chats/status',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security, summary: 'Set the status of several chats', body: bulkStatusBody },
    },
    async (req) => ({ chats: await setChatsStatus(deps, await performer(req), req.body.ids, req.body) }),
  );

  app.put(
    '/chats/:id/status',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security,
        summary: 'Set the status of a chat',
        params: idParams,
        body: statusBody,
      },
    },
    async (req) => {
      const [chat] = await setChatsStatus(deps, await performer(req), [req.params.id], req.body);
      return { chat };
    },
  );

  app.put(
    '/items/:id/tags',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security, summary: "Replace a comment's tags", params: idParams, body: tagsBody },
    },
    async (req) => ({ item: await setItemTags(deps, await performer(req), req.params.id, req.body.tag_ids) }),
  );

  app.put(
    '/chats/:id/tags',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security, summary: "Replace a chat's tags", params: idParams, body: tagsBody },
    },
    async (req) => ({ chat: await setChatTags(deps, await performer(req), req.params.id, req.body.tag_ids) }),
  );

  app.put(
    '/items/:id/assign',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security,
        summary: 'Assign a comment to a member (or nobody)',
        params: idParams,
        body: assignBody,
      },
    },
    async (req) => ({ item: await assignItem(deps, await performer(req), req.params.id, req.body.user_id) }),
  );

  app.put(
    '/chats/:id/assign',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security,
        summary: 'Assign a chat to a member (or nobody)',
        params: idParams,
        body: assignBody,
      },
    },
    async (req) => ({ chat: await assignChat(deps, await performer(req), req.params.id, req.body.user_id) }),
  );
}
