import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { translate } from '@otklik/shared';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { decorateActor } from './http/auth';
import { handleError } from './http/error-handler';
import { registerHealthRoutes } from './http/health';
import { registerInputGuard } from './http/input';
import { requestLocale } from './http/locale';
import { registerMetrics } from './http/metrics';
import { openApiTransform } from './http/openapi';
import { parseQueryString } from './http/querystring';
import { REQUEST_ID_LOG_LABEL, registerRequestIdHeader, requestId } from './http/request-id';
import { originChecker, registerSecurityHeaders, trustProxyOption } from './http/security';
import { validatorCompiler } from './http/validation';
import { registerTestClockRoute } from './jobs/test-clock';
import type { Config } from './lib/config';
import { SnapshotCache } from './lib/snapshot-cache';
import { registerAiModule } from './modules/ai/routes';
import { registerApiTokensModule } from './modules/api-tokens/routes';
import { authenticateApiToken, isApiToken } from './modules/api-tokens/service';
import { registerAuditModule } from './modules/audit/routes';
import { registerAuthModule } from './modules/auth/routes';
import { authenticateAccessToken, liveSessionIds } from './modules/auth/tokens';
import { registerAuthorsModule } from './modules/authors/routes';
import { registerBillingRoutes } from './modules/billing/routes';
import { registerBotsModule } from './modules/bots/routes';
import { registerOAuthConnectRoutes } from './modules/channels/oauth-routes';
import { registerWebhookRoutes } from './modules/channels/webhooks';
import { registerCsiModule } from './modules/csi/routes';
import type { AppDeps } from './modules/deps';
import { registerEmotionsModule } from './modules/emotions/routes';
import { registerFactsModule } from './modules/facts/routes';
import { registerHdeModule } from './modules/hde/routes';
import { registerInboxActionsModule } from './modules/inbox/actions/routes';
import { registerFailuresRoutes } from './modules/inbox/failures/failures-routes';
import { registerMediaRoutes } from './modules/inbox/media';
import { registerInboxModule } from './modules/inbox/read/routes';
import { registerIssuesModule } from './modules/issues/routes';
import { registerMacrosModule } from './modules/macros/routes';
import { registerMonitoringFeedsModule } from './modules/monitoring/feeds/routes';
import { registerMonitoringModule } from './modules/monitoring/routes';
import { registerNotesModule } from './modules/notes/routes';
import { registerNotificationsModule } from './modules/notifications/routes';
import { registerOAuthAppsModule } from './modules/oauthapps/routes';
import { registerObjectsModule } from './modules/objects/routes';
import { registerQaModule } from './modules/qa/routes';
import { loadConnectionAccess, registerRealtimeRoutes } from './modules/realtime/routes';
import { registerReferralRoutes } from './modules/referral/routes';
import { registerRulesModule } from './modules/rules/routes';
import { registerSpacesModule } from './modules/spaces/routes';
import { registerStatsModule } from './modules/stats/routes';
import { registerStatusesModule } from './modules/statuses/routes';
import { registerTagsModule } from './modules/tags/routes';
import { registerTemplatesModule } from './modules/templates/routes';
import { registerUsersModule } from './modules/users/routes';
import { registerWebhooksModule } from './modules/webhooks/routes';
import { registerWorkinghoursModule } from './modules/workinghours/routes';
import { registerYouscanModule } from './modules/youscan/routes';
import { RealtimeHub } from './realtime/hub';

export type App = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    hub: RealtimeHub;
    listPages: SnapshotCache;
    statsAnswers: SnapshotCache;
  }
}

/** The Fastify app, usable from tests without a port (`app.inject`). */
/** The web app's mark (apps/web/public/favicon.svg) with the name beside it, for the API docs page. */
const DOCS_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 32" width="120" height="32"><rect width="32" height="32" rx="8" fill="#4c6ef5"/><path d="M9 10h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-7l-5 4v-4H9a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2z" fill="#fff"/><text x="40" y="23" font-family="sans-serif" font-size="18" font-weight="700" fill="#fff">Otklik</text></svg>';

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config } = deps;
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    routerOptions: { querystringParser: parseQueryString },
    trustProxy: trustProxyOption(config),
    bodyLimit: 12 * 1024 * 1024,
    // Every log line of a request carries its id (README "Deploying": logs).
    requestIdHeader: false,
    genReqId: requestId,
    logController: new LogController({ requestIdLogLabel: REQUEST_ID_LOG_LABEL }),
  }).withTypeProvider<ZodTypeProvider>();

  registerRequestIdHeader(app);
  registerSecurityHeaders(app, config);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  decorateActor(app);
  // OAuth clients post token requests form-encoded (RFC 6749); the web app posts JSON. Both work.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.setErrorHandler(handleError);
  registerInputGuard(app);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Otklik API',
        version: '1',
        description:
          "Errors are `{ error, error_type?, fields? }` with `error` in the caller's locale (`locale` query parameter, the user's locale, or Accept-Language; Russian by default). Text with U+0000 or an unpaired surrogate, JSON nested deeper than 32 levels and a PUT/PATCH body that sets no field are answered 400.",
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
    transform: openApiTransform,
  });

  registerHealthRoutes(app, deps);
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // The same document, browsable (Swagger UI's own files, served from here: no outside address).
  await app.register(fastifySwaggerUi, {
    routePrefix: '/v1/docs',
    // Our own mark rather than the framework's; no call to the outside validator badge.
    logo: { type: 'image/svg+xml', content: Buffer.from(DOCS_LOGO), href: '/', target: '_self' },
    uiConfig: { docExpansion: 'none', deepLinking: true, defaultModelsExpandDepth: 0, validatorUrl: null },
  });

  const db = deps.database.db;
  // A login's access token, or an API token (`otk_…`) narrowed to its spaces and role (modules/api-tokens).
  const authenticateSession = (token: string) => authenticateAccessToken(db, token);
  const authenticate = (token: string) =>
    isApiToken(token) ? authenticateApiToken(db, token) : authenticateSession(token);
  const hub = new RealtimeHub(
    deps.bus,
    deps.locks,
    deps.log,
    (userId) => loadConnectionAccess(db, userId),
    (sessionIds) => liveSessionIds(db, sessionIds),
  );
  app.decorate('hub', hub);
  app.decorate('listPages', new SnapshotCache({ maxBytes: config.LIST_CACHE_MB * 1024 * 1024 }));
  app.decorate('statsAnswers', new SnapshotCache({ maxBytes: config.STATS_CACHE_MB * 1024 * 1024 }));
  app.addHook('onClose', async () => hub.close());
  registerMetrics(app, { config, database: deps.database, hub });

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
      await registerTemplatesModule(v1, deps, authenticate);
      await registerOAuthAppsModule(v1, deps, authenticate);
      await registerAuditModule(v1, deps, authenticate);
      await registerNotesModule(v1, deps, authenticate);
      await registerMonitoringModule(v1, deps, authenticate);
      await registerMonitoringFeedsModule(v1, deps, authenticate);
      await registerHdeModule(v1, deps, authenticate);
      await registerYouscanModule(v1, deps, authenticate);
      await registerIssuesModule(v1, deps, authenticate);
      registerTestClockRoute(v1, deps);
      await registerNotificationsModule(v1, deps, authenticate);
      await registerMacrosModule(v1, deps, authenticate);
      await registerQaModule(v1, deps, authenticate);
      await registerRulesModule(v1, deps, authenticate);
      await registerBotsModule(v1, deps, authenticate);
      await registerEmotionsModule(v1, deps, authenticate);
      await registerAiModule(v1, deps, authenticate);
      await registerAuthorsModule(v1, deps, authenticate);
      await registerFactsModule(v1, deps, authenticate);
      await registerStatsModule(v1, deps, authenticate);
      await registerCsiModule(v1, deps, authenticate);
      // Sockets belong to a login (the hub ends them with its session); API tokens use the HTTP API.
      await registerRealtimeRoutes(v1, hub, authenticateSession, originChecker(config));
      await registerWebhookRoutes(v1, deps);
      await registerBillingRoutes(v1, deps, authenticate);
      await registerReferralRoutes(v1, deps, authenticate);
      await registerOAuthConnectRoutes(v1, deps, authenticate);
      await registerApiTokensModule(v1, deps, authenticate);
      await registerWebhooksModule(v1, deps, authenticate);
    },
    { prefix: '/v1' },
  );

  await serveWebApp(app, config);
  return app;
}

function webDistDir(config: Config): string {
  if (config.WEB_DIST) return resolve(config.WEB_DIST);
  const here = dirname(fileURLToPath(import.meta.url));
  return resolve(here, '../../web/dist');
}

/**
 * Paths that are never a web screen: the API, the probes, /metrics and the build's assets. A GET for
 * anything else without a file extension is a client-side route and gets index.html; the rest is a
 * JSON 404 (a monitor polling /metrics must not read the app's HTML as a 200). /metrics itself is a
 * route only when METRICS_TOKEN is set (http/metrics.ts).
 */
const NOT_WEB_ROUTE = /^\/(?:v1|healthz|readyz|livez|metrics|assets)(?:\/|$)/;

// An extension has a letter: /items/1.5 (a malformed id) is a web route, whose screen says "not found".
const FILE_EXTENSION = /\.(?=[a-z0-9]{0,7}[a-z])[a-z0-9]{1,8}$/i;

export function isWebRoute(path: string): boolean {
  return !NOT_WEB_ROUTE.test(path) && !FILE_EXTENSION.test(path);
}

const IMMUTABLE_ASSET = /[\\/]assets[\\/][^\\/]+$/;

/** The built web app with SPA fallback: a GET for a web route (isWebRoute) gets index.html. */
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
      // The build writes .br and .gz copies (apps/web/compress.ts): sent to browsers that accept them.
      preCompressed: true,
      // Files under /assets/ have their content's hash in the name: a browser keeps them for a year.
      setHeaders: (res, path) => {
        if (IMMUTABLE_ASSET.test(path)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if (req.method === 'GET' && hasDist && isWebRoute(path))
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    const locale = requestLocale(req);
    return reply.status(404).send({ error: translate(locale, 'error.notFound') });
  });
}
