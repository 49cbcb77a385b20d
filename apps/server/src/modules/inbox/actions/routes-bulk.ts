import {
  bulkActionBody,
  bulkResponseWireSchema,
  bulkUndoBody,
  bulkUndoResponseWireSchema,
} from '@otklik/shared';
import type { ZodApp } from '../../../http/auth';
import { requestLocale } from '../../../http/locale';
import { type BulkKind, runBulkAction, undoBulkAction } from './bulk';
import type { RouteContext } from './routes';

const TAG = ['inbox'];

/** Bulk close / tag / assign / snooze of comments and chats, answered per id, with undo (issue 13). */
export function registerBulkRoutes(app: ZodApp, { deps, performer }: RouteContext) {
  for (const kind of ['items', 'chats'] as const satisfies BulkKind[]) {
    const what = kind === 'items' ? 'comments' : 'chats';
    app.post(
      `/${kind}/bulk`,
      {
        schema: {
          tags: TAG,
          summary: `Close, tag, assign or snooze several ${what}; answered per id, with an undo token`,
          body: bulkActionBody,
          response: { 200: bulkResponseWireSchema },
        },
      },
      async (req) =>
        runBulkAction(
          { deps, performer: performer(req), locale: requestLocale(req), log: req.log },
          kind,
          req.body.ids,
          req.body.action,
        ),
    );
    app.post(
      `/${kind}/bulk/undo`,
      {
        schema: {
          tags: TAG,
          summary: `Undo a bulk action on ${what} where nobody changed them since`,
          body: bulkUndoBody,
          response: { 200: bulkUndoResponseWireSchema },
        },
      },
      async (req) =>
        undoBulkAction(
          { deps, performer: performer(req), locale: requestLocale(req), log: req.log },
          kind,
          req.body.token,
        ),
    );
  }
}
