import {
  chatMessageSentWireSchema,
  chatMessageUndoneWireSchema,
  directSentWireSchema,
  itemAnswerWireSchema,
  itemReplyUndoneWireSchema,
  itemReplyWireSchema,
  itemsReplyWireSchema,
  messageAnswerWireSchema,
} from '@otklik/shared';
import type { z } from 'zod';
import type { ZodApp } from '../../../http/auth';
import { retryItemSend, retryMessageSend } from './retry';
import type { RouteContext } from './routes';
import { bulkReplyBody, directBody, idParams, replyBody } from './schemas';
import { replyToItem, replyToItems, sendChatMessage, sendDirect } from './send';
import { undoChatMessage, undoItemReply } from './undo-send';

const TAG = ['inbox'];
/** docs/product/api.md lock/unlock: the socket lock of who is answering is enforced here (reply-locks.ts). */
const LOCKED =
  '409 with `error_type` locked (and `key`, `holder` {id, name}) while another user holds the socket lock (`item:ID` / `chat:ID`) of what is answered; the holder, from any tab, may send.';

/** The options of a bodyless POST on one reply or message (`:id`): its summary, answer and description. */
const byId = <Answer extends z.ZodType>(summary: string, answer: Answer, description?: string) => ({
  schema: {
    tags: TAG,
    summary,
    ...(description !== undefined ? { description } : {}),
    params: idParams,
    response: { 200: answer },
  },
});

/** Replies and messages (the composer) and re-sending what a network refused. */
export function registerSendRoutes(app: ZodApp, { deps, performer }: RouteContext) {
  app.post(
    '/items/:id/reply',
    {
      schema: {
        tags: TAG,
        summary: 'Reply publicly under a comment or review (closes it with reply)',
        description: `Checked against the network limits (characters, UTF-8 bytes, attachments): 400 with \`error_type\` text_too_long | bytes_too_long | too_many_attachments | not_supported and \`limit\`. ${LOCKED} Returns at once with the reply \`queued\`; its delivery changes over the socket.`,
        params: idParams,
        body: replyBody,
        response: { 200: itemReplyWireSchema },
      },
    },
    async (req) => replyToItem(deps, performer(req), req.params.id, req.body),
  );

  app.post(
    '/items/reply',
    {
      schema: {
        tags: TAG,
        summary: 'The same reply to several comments of one account',
        description: `All or nothing. ${LOCKED.replace('what is answered', 'any of the comments')}`,
        body: bulkReplyBody,
        response: { 200: itemsReplyWireSchema },
      },
    },
    async (req) => replyToItems(deps, performer(req), req.body.ids, req.body),
  );

  app.post(
    '/items/:id/direct',
    {
      schema: {
        tags: TAG,
        summary: "'Direct': one private message to the commenter, in their chat",
        description: `${LOCKED} Both the comment's lock and, when it exists, the conversation's count.`,
        params: idParams,
        body: directBody,
        response: { 200: directSentWireSchema },
      },
    },
    async (req) => sendDirect(deps, performer(req), req.params.id, req.body),
  );

  app.post(
    '/chats/:id/messages',
    {
      schema: {
        tags: TAG,
        summary: 'Write in a private conversation',
        description: LOCKED,
        params: idParams,
        body: replyBody,
        response: { 200: chatMessageSentWireSchema },
      },
    },
    async (req) => sendChatMessage(deps, performer(req), req.params.id, req.body),
  );

  const UNDO =
    'Only the sender, only a reply sent with `undoable` and only until the worker takes it (5 s): the reply goes, the replied record gets its previous state back, and the text is returned for the composer. Later: 409 with `error_type` too_late.';
  app.post(
    '/items/:id/undo',
    byId('Undo a reply (by its id) not sent yet', itemReplyUndoneWireSchema, UNDO),
    async (req) => undoItemReply(deps, performer(req), req.params.id),
  );
  app.post(
    '/messages/:id/undo',
    byId('Undo a chat message not sent yet', chatMessageUndoneWireSchema, UNDO),
    async (req) => undoChatMessage(deps, performer(req), req.params.id),
  );

  app.post('/items/:id/retry', byId('Send a failed reply again', itemAnswerWireSchema), async (req) => ({
    item: await retryItemSend(deps, performer(req), req.params.id),
  }));
  app.post(
    '/messages/:id/retry',
    byId('Send a failed message again', messageAnswerWireSchema),
    async (req) => ({ message: await retryMessageSend(deps, performer(req), req.params.id) }),
  );
}
