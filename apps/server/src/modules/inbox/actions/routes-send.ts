import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { retryItemSend, retryMessageSend } from './retry';
import type { RouteContext } from './routes';
import { bulkReplyBody, directBody, idParams, replyBody } from './schemas';
import { replyToItem, replyToItems, sendChatMessage, sendDirect } from './send';
import { undoChatMessage, undoItemReply } from './undo-send';

const TAG = ['inbox'];
const security = [{ bearer: [] }];
/** docs/product/api.md lock/unlock: the socket lock of who is answering is enforced here (reply-locks.ts). */
const LOCKED =
  '409 with `error_type` locked (and `key`, `holder` {id, name}) while another user holds the socket lock (`item:ID` / `chat:ID`) of what is answered; the holder, from any tab, may send.';

/** Replies and messages (the composer) and re-sending what a network refused. */
export function registerSendRoutes(root: FastifyInstance, { deps, authenticated, performer }: RouteContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/items/:id/reply',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security,
        summary: 'Reply publicly under a comment or review (closes it with reply)',
        description: `Checked against the network limits (characters, UTF-8 bytes, attachments): 400 with \`error_type\` text_too_long | bytes_too_long | too_many_attachments | not_supported and \`limit\`. ${LOCKED} Returns at once with the reply \`queued\`; its delivery changes over the socket.`,
        params: idParams,
        body: replyBody,
      },
    },
    async (req) => replyToItem(deps, await performer(req), req.params.id, req.body),
  );

  app.post(
    '/items/reply',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security,
        summary: 'The same reply to several comments of one account',
        description: `All or nothing. ${LOCKED.replace('what is answered', 'any of the comments')}`,
        body: bulkReplyBody,
      },
    },
    async (req) => replyToItems(deps, await performer(req), req.body.ids, req.body),
  );

  app.post(
    '/items/:id/direct',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security,
        summary: "'Direct': one private message to the commenter, in their chat",
        description: `${LOCKED} Both the comment's lock and, when it exists, the conversation's count.`,
        params: idParams,
        body: directBody,
      },
    },
    async (req) => sendDirect(deps, await performer(req), req.params.id, req.body),
  );

  app.post(
    '/chats/:id/messages',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security,
        summary: 'Write in a private conversation',
        description: LOCKED,
        params: idParams,
        body: replyBody,
      },
    },
    async (req) => sendChatMessage(deps, await performer(req), req.params.id, req.body),
  );

  const UNDO =
    'Only the sender, only a reply sent with `undoable` and only until the worker takes it (5 s): the reply goes, the replied record gets its previous state back, and the text is returned for the composer. Later: 409 with `error_type` too_late.';
  app.post(
    '/items/:id/undo',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security,
        summary: 'Undo a reply (by its id) not sent yet',
        description: UNDO,
        params: idParams,
      },
    },
    async (req) => undoItemReply(deps, await performer(req), req.params.id),
  );

  app.post(
    '/messages/:id/undo',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security,
        summary: 'Undo a chat message not sent yet',
        description: UNDO,
        params: idParams,
      },
    },
    async (req) => undoChatMessage(deps, await performer(req), req.params.id),
  );

  app.post(
    '/items/:id/retry',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security, summary: 'Send a failed reply again', params: idParams },
    },
    async (req) => ({ item: await retryItemSend(deps, await performer(req), req.params.id) }),
  );

  app.post(
    '/messages/:id/retry',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security, summary: 'Send a failed message again', params: idParams },
    },
    async (req) => ({ message: await retryMessageSend(deps, await performer(req), req.params.id) }),
  );
}
