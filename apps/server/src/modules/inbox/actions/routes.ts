import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../app';
import { type AuthContext, requireAuth } from '../../../http/auth';
import { loadActor } from '../../spaces/actor';
import type { Performer } from './policy';
import { registerBulkRoutes } from './routes-bulk';
import { registerModerationRoutes } from './routes-moderation';
import { registerSendRoutes } from './routes-send';
import { registerUploadRoutes } from './routes-uploads';
import { registerWorkflowRoutes } from './routes-workflow';
import type { ActionDeps } from './send';

export interface RouteContext {
  deps: ActionDeps;
  authenticated: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** The signed-in user as the send path sees them. */
  performer: (req: FastifyRequest) => Promise<Performer>;
}

/**
 * What operators and moderators do to inbox content (docs/product/states.md, roles.md): reply, message, 'Direct', status,
 * tags, assignment, moderation, reactions, edits, blocking, uploads. Routes parse and call one service
 * function; every check lives in the send path (send.ts, policy.ts).
 */
export async function registerInboxActionsModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: (token: string) => Promise<AuthContext>,
) {
  const { db } = deps.database;
  const context: RouteContext = {
    deps: { db, bus: deps.bus, config: deps.config, sealer: deps.sealer, locks: deps.locks },
    authenticated: requireAuth(authenticate),
    performer: async (req) => ({ kind: 'user', actor: await loadActor(db, req.auth!.user) }),
  };
  await root.register(async (scope) => {
    registerSendRoutes(scope, context);
    registerModerationRoutes(scope, context);
    registerWorkflowRoutes(scope, context);
    registerBulkRoutes(scope, context);
    await registerUploadRoutes(scope, context);
  });
}
