import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { type AuthContext, bearerToken } from '../http/auth';
import { AppError } from '../http/errors';
import { requestLocale } from '../http/locale';
import type { RealtimeHub } from './hub';

export { loadConnectionAccess } from './access';

/** `GET /v1/ws?access_token=...` (SPEC §7): a bad token is refused before the upgrade with 401. */
export async function registerRealtimeRoutes(
  app: FastifyInstance,
  hub: RealtimeHub,
  authenticate: (token: string) => Promise<AuthContext>,
) {
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  app.get(
    '/ws',
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (req) => {
        const token = bearerToken(req);
        if (!token) throw new AppError(401, 'error.unauthorized');
        req.auth = await authenticate(token);
      },
    },
    async (socket, req) => {
      const user = req.auth!.user;
      await hub.attach(socket, { id: user.id, name: user.name }, requestLocale(req));
    },
  );
}
