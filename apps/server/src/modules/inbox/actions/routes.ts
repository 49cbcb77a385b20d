import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Authenticate, signedInScope } from '../../../http/auth';
import type { AppDeps } from '../../deps';
import type { Performer } from './policy';
import { registerBulkRoutes } from './routes-bulk';
import { registerModerationRoutes } from './routes-moderation';
import { registerSendRoutes } from './routes-send';
import { registerUploadFiles, registerUploadParser, registerUploadRoutes } from './routes-uploads';
import { registerWorkflowRoutes } from './routes-workflow';
import type { ActionDeps } from './send';

export interface RouteContext {
  deps: ActionDeps;
  /** The signed-in user as the send path sees them. */
  performer: (req: FastifyRequest) => Performer;
}

/**
 * What operators and moderators do to inbox content (docs/product/states.md, roles.md): reply, message, 'Direct', status,
 * tags, assignment, moderation, reactions, edits, blocking, uploads. Routes parse and call one service
 * function; every check lives in the send path (send.ts, policy.ts).
 */
export async function registerInboxActionsModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  const { db } = deps.database;
  const context: RouteContext = {
    deps: { db, bus: deps.bus, config: deps.config, sealer: deps.sealer, locks: deps.locks },
    performer: (req) => ({ kind: 'user', actor: req.actor }),
  };
  await root.register(async (scope) => {
    await registerUploadParser(scope);
    await signedInScope(scope, authenticate, (app) => {
      registerSendRoutes(app, context);
      registerModerationRoutes(app, context);
      registerWorkflowRoutes(app, context);
      registerBulkRoutes(app, context);
      registerUploadRoutes(app, context);
    });
    registerUploadFiles(scope, context);
  });
}
