import { bulkActionBody, bulkUndoBody } from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requestLocale } from '../../../http/locale';
import { type BulkKind, runBulkAction, undoBulkAction } from './bulk';
import type { RouteContext } from './routes';

const TAG = ['inbox'];
const security = [{ bearer: [] }];

/** Bulk close / tag / assign / snooze of comments and chats, answered per id, with undo (issue 13). */
export function registerBulkRoutes(root: FastifyInstance, { deps, authenticated, performer }: RouteContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  for (const kind of ['items', 'chats'] as const satisfies BulkKind[]) {
    const what = kind === 'items' ? 'comments' : 'chats';
    app.post(
      `/${kind}/bulk`,
      {
        preHandler: authenticated,
        schema: {
          tags: TAG,
          security,
          summary: `Close, tag, assign or snooze several ${what}; answered per id, with an undo token`,
          body: bulkActionBody,
        },
      },
      async (req) =>
        runBulkAction(
          { deps, performer: await performer(req), locale: requestLocale(req), log: req.log },
          kind,
          req.body.ids,
          req.body.action,
        ),
    );
    app.post(
      `/${kind}/bulk/undo`,
      {
        preHandler: authenticated,
        schema: {
          tags: TAG,
          security,
          summary: `Undo a bulk action on ${what} where nobody changed them since`,
          body: bulkUndoBody,
        },
      },
      async (req) =>
        undoBulkAction(
          { deps, performer: await performer(req), locale: requestLocale(req), log: req.log },
          kind,
          req.body.token,
        ),
    );
  }
}
