import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../deps';
import '../../http/route-config';
import { bearerToken } from '../../http/auth';
import { sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import {
  ingestBatchSchema,
  ingestResultSchema,
  pendingRepliesSchema,
  replyAckResultSchema,
  replyAckSchema,
} from '../../providers/generic/schemas';
import { acknowledgeReply, findPendingReplies, getIngestObject, ingestItems } from './generic-service';

const TAG = ['ingest'];
// The ingest token goes where an access token would (or in X-Ingest-Token).
const security = [{ bearer: [] }];
const REQUESTS_PER_MINUTE = 120;

const tokenOf = (req: FastifyRequest) => {
  const header = req.headers['x-ingest-token'];
  return (typeof header === 'string' && header.trim()) || bearerToken(req);
};

/** The generic ingestion API for collectors of sites without a public API (catalogue `ingest_token`). */
export async function registerIngestRoutes(root: FastifyInstance, deps: AppDeps) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = deps.database;
  const serviceDeps = { db, bus: deps.bus };

  const account = async (req: FastifyRequest) => {
    const token = tokenOf(req);
    const { count, resetInSeconds } = await deps.limiter.hit(
      `ingest:${sha256(token ?? req.ip).slice(0, 24)}`,
      60,
    );
    if (count > REQUESTS_PER_MINUTE) {
      throw new AppError(429, 'error.rateLimited', {
        params: { seconds: resetInSeconds },
        headers: { 'retry-after': String(resetInSeconds) },
      });
    }
    return getIngestObject(db, token);
  };

  app.post(
    '/ingest/items',
    {
      // Customer text with NUL or lone surrogates is cleaned by ingest(), not refused (issue #11).
      config: { sanitizesOwnInput: true },
      schema: {
        tags: TAG,
        security,
        summary: 'Send reviews, comments and mentions of a site (up to 500 per request)',
        description:
          'Authenticate with `Authorization: Bearer <ingest token>` or `X-Ingest-Token: <ingest token>` (the token is shown when the account is connected; POST /v1/objects/{id}/token issues a new one). Items are idempotent by `external_id`: sending one again changes nothing and counts as a duplicate. Invalid items are listed in `invalid` and the rest are stored. Text is stored without U+0000 (NUL) characters, and a lone UTF-16 surrogate becomes U+FFFD.',
        body: ingestBatchSchema,
        response: { 200: ingestResultSchema },
      },
    },
    async (req) => ingestItems(serviceDeps, await account(req), req.body.items),
  );

  app.get(
    '/ingest/replies',
    {
      schema: {
        tags: TAG,
        security,
        summary: "Operators' replies waiting for the collector to post them on the site",
        description:
          "Replies handed to the collector and not yet reported back. A new reply has `external_id: null`: post it, then report the site id. An operator may edit a reply inside the site's edit window (catalogue `edit_comment`, e.g. vc.ru 1200 s after it was written): an edited reply that is already posted comes back here with its `external_id`, the new `text` and `edited: true` — change it on the site, then report it again (the same or a new site id). Reporting an `error` for an edited reply keeps the posted text.",
        response: { 200: pendingRepliesSchema },
      },
    },
    async (req) => ({ items: await findPendingReplies(db, await account(req)) }),
  );

  app.post(
    '/ingest/replies/:id',
    {
      schema: {
        tags: TAG,
        security,
        summary: 'Report a reply as posted (with the site id) or refused (with the error text)',
        description:
          'A refused new reply shows as failed to the operator, who may retry it (it then comes back to the feed). A refused edit is undone: the reply shows the posted text again with the error.',
        params: z.object({ id: z.coerce.number().int().positive() }),
        body: replyAckSchema,
        response: { 200: replyAckResultSchema },
      },
    },
    async (req) => {
      const row = await acknowledgeReply(serviceDeps, await account(req), req.params.id, req.body);
      return { id: row.id, delivery: row.delivery, external_id: row.externalId };
    },
  );
}
