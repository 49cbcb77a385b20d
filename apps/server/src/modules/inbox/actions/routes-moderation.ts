import { authorBlockWireSchema, itemAnswerWireSchema, messageAnswerWireSchema } from '@otklik/shared';
import type { ZodApp } from '../../../http/auth';
import { blockAuthor, unblockAuthor } from './authors';
import { editReply, ITEM_ACTIONS, moderateItem, reactToItem, reactToMessage } from './moderation';
import type { RouteContext } from './routes';
import { blockBody, editBody, idParams, reactBody } from './schemas';

const TAG = ['inbox'];

const SUMMARIES = {
  delete: 'Delete a comment on the network (moderators)',
  restore: 'Restore a deleted comment (where the network can)',
  hide: 'Hide a comment from the public (moderators)',
  unhide: 'Show a hidden comment again',
  like: 'Like a comment as the account',
  unlike: 'Take the like back',
  report: 'Report a comment to the network as spam (where its API allows: VK)',
} as const;

/** Moderation and engagement on the network, editing own replies, blocking authors. */
export function registerModerationRoutes(app: ZodApp, { deps, performer }: RouteContext) {
  for (const action of ITEM_ACTIONS) {
    app.post(
      `/items/:id/${action}`,
      {
        schema: {
          tags: TAG,
          summary: SUMMARIES[action],
          params: idParams,
          response: { 200: itemAnswerWireSchema },
        },
      },
      async (req) => ({ item: await moderateItem(deps, performer(req), req.params.id, action) }),
    );
  }

  app.post(
    '/items/:id/react',
    {
      schema: {
        tags: TAG,
        summary: 'React to a comment as the account',
        params: idParams,
        body: reactBody,
        response: { 200: itemAnswerWireSchema },
      },
    },
    async (req) => {
      const value = req.body.value === null ? null : String(req.body.value);
      return { item: await reactToItem(deps, performer(req), req.params.id, value) };
    },
  );

  app.post(
    '/messages/:id/react',
    {
      schema: {
        tags: TAG,
        summary: "React to a customer's message",
        params: idParams,
        body: reactBody,
        response: { 200: messageAnswerWireSchema },
      },
    },
    async (req) => {
      const value = req.body.value === null ? null : String(req.body.value);
      return { message: await reactToMessage(deps, performer(req), req.params.id, value) };
    },
  );

  app.put(
    '/items/:id',
    {
      schema: {
        tags: TAG,
        summary: "Edit the account's own reply within the network's edit window",
        params: idParams,
        body: editBody,
        response: { 200: itemAnswerWireSchema },
      },
    },
    async (req) => ({ item: await editReply(deps, performer(req), req.params.id, req.body) }),
  );

  app.post(
    '/authors/:id/block',
    {
      schema: {
        tags: TAG,
        summary: 'Block an author (and ban them on the network where it can)',
        params: idParams,
        body: blockBody,
        response: { 200: authorBlockWireSchema },
      },
    },
    async (req) => blockAuthor(deps, performer(req), req.params.id, req.body.duration),
  );

  app.post(
    '/authors/:id/unblock',
    {
      schema: {
        tags: TAG,
        summary: 'Unblock an author',
        params: idParams,
        response: { 200: authorBlockWireSchema },
      },
    },
    async (req) => unblockAuthor(deps, performer(req), req.params.id),
  );
}
