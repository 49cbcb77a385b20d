import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import { translate } from '@otklik/shared';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Sealer } from '../lib/crypto';
import type { Logger } from '../lib/logger';
import type { RateLimiter } from '../lib/rate-limit';
import type { Mailer } from '../mail/mailer';
import { registerAuthModule } from '../modules/auth/routes';
import { authenticateAccessToken } from '../modules/auth/tokens';
import { registerAuthorsModule } from '../modules/authors/routes';
import { registerInboxActionsModule } from '../modules/inbox/actions/routes';
import { registerFailuresRoutes } from '../modules/inbox/failures-routes';
import { registerMediaRoutes } from '../modules/inbox/media';
import { ListPageCache } from '../modules/inbox/page-cache';
import { registerInboxModule } from '../modules/inbox/routes';
import { registerObjectsModule } from '../modules/objects/routes';
import { registerSpacesModule } from '../modules/spaces/routes';
import { registerStatusesModule } from '../modules/statuses/routes';
import { registerTagsModule } from '../modules/tags/routes';
import { registerUsersModule } from '../modules/users/routes';
import { registerWorkinghoursModule } from '../modules/workinghours/routes';
import type { WorkinghoursScheduler } from '../modules/workinghours/scheduler';
import { registerOAuthConnectRoutes } from '../providers/oauth-routes';
import { registerWebhookRoutes } from '../providers/webhooks';
import type { EventBus } from '../realtime/bus';
import { RealtimeHub } from '../realtime/hub';
import type { LockStore } from '../realtime/locks';
import { loadConnectionAccess, registerRealtimeRoutes } from '../realtime/routes';
import { AppError } from './errors';
import { requestLocale } from './locale';
import { parseQueryString } from './querystring';

export interface AppDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  limiter: RateLimiter;
  sealer: Sealer;
  log: Logger;
  bus: EventBus;
  locks: LockStore;
  schedule: WorkinghoursScheduler;
}

export type App = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    hub: RealtimeHub;
    listPages: ListPageCache;
  }
}

/** The Fastify app, usable from tests without a port (`app.inject`). */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config } = deps;
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    routerOptions: { querystringParser: parseQueryString },
    trustProxy: true,
    bodyLimit: 12 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('auth', null);
  // OAuth clients post token requests form-encoded (RFC 6749); the web app posts JSON. Both work.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.setErrorHandler((error: FastifyError | AppError, req, reply) => {
    const locale = requestLocale(req);
    if (error instanceof AppError) {
      const { errorType, fields, params, body, headers } = error.extra;
      if (headers) reply.headers(headers);
      const translatedFields = fields
        ? Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, translate(locale, v)]))
        : undefined;
      return reply.status(error.status).send({
        error: translate(locale, error.key, params),
        ...(errorType ? { error_type: errorType } : {}),
        ...(translatedFields ? { fields: translatedFields } : {}),
        ...body,
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
        if (!(field in fields)) fields[field] = translate(locale, issue.message ?? 'field.invalid');
      }
      const first = Object.values(fields)[0];
      return reply
        .status(400)
        .send({ error: first ?? translate(locale, 'error.validation'), error_type: 'validation', fields });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      req.log.error({ err: error }, 'Request failed');
      return reply.status(500).send({ error: translate(locale, 'error.internal') });
    }
    if (status === 429)
      return reply.status(429).send({ error: translate(locale, 'error.rateLimited', { seconds: 60 }) });
    // Fastify's own client errors (bad JSON, wrong content type, body too large): keep their text.
    return reply.status(status).send({ error: error.message });
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Otklik API',
        version: '1',
        description:
          "Errors are `{ error, error_type?, fields? }` with `error` in the caller's locale (`locale` query parameter, the user's locale, or Accept-Language; Russian by default).",
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'Opaque access token from /v1/oauth2/token',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  app.get('/healthz', { schema: { hide: true } }, async () => {
    await deps.database.query('SELECT 1');
    return { status: 'ok' };
  });
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const db = deps.database.db;
  const authenticate = (token: string) => authenticateAccessToken(db, token);
  const hub = new RealtimeHub(deps.bus, deps.locks, deps.log, (userId) => loadConnectionAccess(db, userId));
  app.decorate('hub', hub);
  app.decorate('listPages', new ListPageCache({ maxBytes: config.LIST_CACHE_MB * 1024 * 1024 }));
  app.addHook('onClose', async () => hub.close());

  await app.register(
    async (v1) => {
      await registerAuthModule(v1, deps);
      await registerSpacesModule(v1, deps, authenticate);
      await registerStatusesModule(v1, deps, authenticate, hub);
      await registerUsersModule(v1, deps, authenticate);
      await registerWorkinghoursModule(v1, deps, authenticate);
      await registerObjectsModule(v1, deps, authenticate);
      await registerInboxModule(v1, deps, authenticate);
      await registerInboxActionsModule(v1, deps, authenticate);
      await registerFailuresRoutes(v1, deps, authenticate);
      await registerMediaRoutes(v1, deps, authenticate);
      await registerTagsModule(v1, deps, authenticate);
      await registerAuthorsModule(v1, deps, authenticate);
      await registerRealtimeRoutes(v1, hub, authenticate);
      await registerWebhookRoutes(v1, deps);
      await registerOAuthConnectRoutes(v1, deps, authenticate);
    },
    { prefix: '/v1' },
  );

  await serveWebApp(app, config);
  return app;
}

function webDistDir(config: Config): string {
  if (config.WEB_DIST) return resolve(config.WEB_DIST);
  const here = dirname(fileURLToPath(import.meta.url));
  return resolve(here, '../../../web/dist');
}

/** The built web app with SPA fallback: any GET outside /v1 that isn't a file gets index.html. */
async function serveWebApp(app: App, config: Config) {
  const dist = webDistDir(config);
  const hasDist = existsSync(join(dist, 'index.html'));
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: dist,
      prefix: '/',
      wildcard: false,
      index: false,
      cacheControl: false,
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const isApi = path.startsWith('/v1/') || path === '/v1' || path === '/healthz';
    if (req.method === 'GET' && !isApi && hasDist) {
      const isAsset = path.startsWith('/assets/');
      if (!isAsset) return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    const locale = requestLocale(req);
    return reply.status(404).send({ error: translate(locale, 'error.notFound') });
  });
}
