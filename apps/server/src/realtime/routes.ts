import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AuthContext, requireAuth } from '../http/auth';
import { forbidden } from '../http/errors';
import { requestLocale } from '../http/locale';
import type { RealtimeHub } from './hub';

export { loadConnectionAccess } from './access';

/**
 * `GET /v1/ws?access_token=...` (docs/product/api.md): a bad token is refused before the upgrade with 401, a page
 * of a foreign origin with 403 (cross-site WebSocket hijacking; http/security.ts originChecker), and the
 * access gate (two-factor required 403, every space expired 402) applies as to every API call.
 */
export async function registerRealtimeRoutes(
  app: FastifyInstance,
  hub: RealtimeHub,
  authenticate: (token: string) => Promise<AuthContext>,
  originAllowed: (req: FastifyRequest) => boolean,
) {
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  // A browser cannot set headers on a websocket: the one route that takes the token in the address.
  const authenticated = requireAuth(authenticate, { allowQueryToken: true });
  app.get(
    '/ws',
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (req, reply) => {
        if (!originAllowed(req)) throw forbidden();
        await authenticated(req, reply);
      },
    },
    async (socket, req) => {
      const { user, sessionId } = req.auth!;
      await hub.attach(socket, { id: user.id, name: user.name, sessionId }, requestLocale(req));
    },
  );
}
