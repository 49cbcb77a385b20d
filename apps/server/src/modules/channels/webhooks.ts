import { isProviderId, type ProviderId } from '@otklik/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { objects } from '../../db/schema';
import { connectorContext } from '../../providers/context';
import { getConnector } from '../../providers/registry';
import { type ObjectRow, WebhookRejected, type WebhookRequest } from '../../providers/types';
import type { AppDeps } from '../deps';
import { IngestBatcher } from '../inbox/ingest/batcher';

/**
 * `/v1/webhooks/{provider}/{account id}`: where networks push updates (issue #5). The connector
 * verifies the call on the raw bytes (signatures, secret headers, VK's `secret`), parses it, and the
 * events go through the one ingestion pipeline. A call that fails verification is answered 403,
 * logged, and stores nothing. The answer goes out after the events are committed.
 */
export async function registerWebhookRoutes(app: FastifyInstance, deps: AppDeps) {
  const batcher = new IngestBatcher({ db: deps.database.db, bus: deps.bus });
  // A burst of webhooks for one account should not read its row each time: a few seconds' cache,
  // dropped when the account changes on any node. Requests that miss together share one read.
  const cache = new Map<number, { row: Promise<ObjectRow | undefined>; until: number }>();
  // The app-wide callback's accounts by network and external ids (Meta: a Page per entry), kept as briefly.
  const appCache = new Map<string, { rows: Promise<ObjectRow[]>; until: number }>();
  const forget = deps.bus.subscribe((event) => {
    if (event.type.startsWith('objects.')) {
      cache.clear();
      appCache.clear();
    }
  });
  app.addHook('onClose', async () => forget());
  const loadObject = async (id: number, provider: string) => {
    let hit = cache.get(id);
    if (!hit || hit.until <= Date.now()) {
      const read = deps.database.db
        .select()
        .from(objects)
        .where(and(eq(objects.id, id), eq(objects.isActive, true)))
        .limit(1)
        .then(([row]) => row);
      hit = { row: read, until: Date.now() + 5_000 };
      cache.set(id, hit);
      // Only a found account is kept; a failed read is not kept either.
      const entry = hit;
      read.then(
        (row) => !row && cache.get(id) === entry && cache.delete(id),
        () => cache.get(id) === entry && cache.delete(id),
      );
    }
    const row = await hit.row;
    return row?.provider === provider ? row : undefined;
  };

  await app.register(async (scope) => {
    // Signatures are computed over the exact bytes the network sent: keep them, parse nothing here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 20 * 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );

    const toRequest = (req: FastifyRequest): WebhookRequest => ({
      method: req.method,
      headers: Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]),
      ),
      query: req.query as WebhookRequest['query'],
      rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
    });

    const handle = async (req: FastifyRequest, reply: FastifyReply) => {
      const { provider, id } = req.params as { provider: string; id: string };
      const objectId = Number(id);
      const connector = isProviderId(provider) ? getConnector(provider) : undefined;
      if (!connector?.handleWebhook || !Number.isInteger(objectId))
        return reply.status(404).send({ error: 'Not found' });
      const object = await loadObject(objectId, provider);
      if (!object) return reply.status(404).send({ error: 'Not found' });
      const request = toRequest(req);
      try {
        const result = await connector.handleWebhook(
          connectorContext({ ...deps, db: deps.database.db }, object),
          request,
        );
        if (result.events.length > 0) {
          const outcome = await batcher.submit(object, result.events);
          if (outcome.invalid.length > 0) {
            req.log.warn(
              { objectId, provider, invalid: outcome.invalid },
              'Webhook carried events we could not store',
            );
          }
        }
        const body = result.body ?? 'ok';
        return reply
          .status(result.status ?? 200)
          .type(typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json')
          .send(body);
      } catch (error) {
        if (error instanceof WebhookRejected) {
          req.log.warn({ objectId, provider, reason: error.message }, 'Webhook rejected');
          return reply.status(403).send({ error: 'Forbidden' });
        }
        throw error;
      }
    };

    const appAccounts = (owner: string, accounts: string[]) => {
      const key = `${owner}|${[...new Set(accounts)].sort().join(',')}`;
      const hit = appCache.get(key);
      if (hit && hit.until > Date.now()) return hit.rows;
      const rows = deps.database.db
        .select()
        .from(objects)
        .where(
          and(eq(objects.provider, owner), eq(objects.isActive, true), inArray(objects.externalId, accounts)),
        )
        .then((found) => found);
      if (appCache.size >= 10_000) appCache.clear();
      const entry = { rows, until: Date.now() + 5_000 };
      appCache.set(key, entry);
      rows.catch(() => appCache.get(key) === entry && appCache.delete(key));
      return rows;
    };

    /** One callback for the whole app (Meta): verified once, then handed to each account it concerns. */
    const handleApp = async (req: FastifyRequest, reply: FastifyReply) => {
      const { provider } = req.params as { provider: string };
      const connector = isProviderId(provider) ? getConnector(provider) : undefined;
      if (!connector?.appWebhook || !connector.handleWebhook)
        return reply.status(404).send({ error: 'Not found' });
      const request = toRequest(req);
      try {
        const routed = connector.appWebhook(deps.config, request);
        const owner = routed.provider ?? (provider as ProviderId);
        const target = owner === provider ? connector : getConnector(owner);
        const rows =
          !target?.handleWebhook || routed.accounts.length === 0
            ? []
            : await appAccounts(owner, routed.accounts);
        for (const object of rows) {
          const result = await target!.handleWebhook!(
            connectorContext({ ...deps, db: deps.database.db }, object),
            request,
          );
          if (result.events.length > 0) await batcher.submit(object, result.events);
        }
        return reply
          .status(routed.status)
          .type(typeof routed.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json')
          .send(routed.body);
      } catch (error) {
        if (error instanceof WebhookRejected) {
          req.log.warn({ provider, reason: error.message }, 'Webhook rejected');
          // A POST without a valid signature is unauthenticated (401); a failed handshake is refused (403).
          return req.method === 'POST'
            ? reply.status(401).send({ error: 'Unauthorized' })
            : reply.status(403).send({ error: 'Forbidden' });
        }
        throw error;
      }
    };

    scope.post('/webhooks/:provider/app', { schema: { hide: true } }, handleApp);
    scope.get('/webhooks/:provider/app', { schema: { hide: true } }, handleApp);
    scope.post('/webhooks/:provider/:id', { schema: { hide: true } }, handle);
    // Handshakes some networks do with GET (WhatsApp hub.challenge).
    scope.get('/webhooks/:provider/:id', { schema: { hide: true } }, handle);
  });
}
