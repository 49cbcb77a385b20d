import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Authenticate, requireAuth } from '../../http/auth';
import { requestLocale } from '../../http/locale';
import { forbidden } from '../../lib/errors';
import type { RealtimeHub } from '../../realtime/hub';

export { loadConnectionAccess } from './access';

/** RFC 6455 1001: the server is going away; clients reconnect (to another node). */
export const CLOSE_GOING_AWAY = 1001;

/**
 * `GET /v1/ws?access_token=...` (docs/product/api.md): a bad token is refused before the upgrade with 401, a page
 * of a foreign origin with 403 (cross-site WebSocket hijacking; http/security.ts originChecker), and the
 * access gate (two-factor required 403, every space expired 402) applies as to every API call.
 */
export async function registerRealtimeRoutes(
  app: FastifyInstance,
  hub: RealtimeHub,
  authenticate: Authenticate,
  originAllowed: (req: FastifyRequest) => boolean,
) {
  await app.register(websocket, {
    options: { maxPayload: 64 * 1024 },
    // On shutdown every socket is closed with 1001 "going away": the web app reconnects at once, through
    // the load balancer, to a node that is still up (README "Deploying").
    preClose(done) {
      for (const client of this.websocketServer.clients) client.close(CLOSE_GOING_AWAY, 'server_shutdown');
      this.websocketServer.close(() => done());
    },
  });
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
