import { okWireSchema, sandboxEntryWireSchema, sandboxPageWireSchema } from '@otklik/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { buildSandboxPage, presentSandboxEntry } from '../../providers/sandbox/page';
import type { ObjectRow } from '../../providers/types';
import type { AppDeps } from '../deps';
import * as sandbox from './sandbox-service';

const TAG = ['sandbox'];
const READS_PER_MINUTE = 300;
const WRITES_PER_MINUTE = 60;

const tokenParams = z.object({ token: z.string().min(16).max(128) });
const entryParams = tokenParams.extend({ id: z.coerce.number().int().positive() });
const authorName = z.string().trim().min(1, 'field.required').max(100, 'field.tooLong');
const text = z.string().trim().min(1, 'field.required').max(10_000, 'field.tooLong');

/**
 * The sandbox network's public API behind the customer page (no sign-in: the account's token is in the
 * path). Rate-limited per address and token on every node (deps.limiter).
 */
export async function registerSandboxRoutes(root: FastifyInstance, deps: AppDeps) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = deps.database;
  const serviceDeps = { db, bus: deps.bus };

  const limit = (max: number, kind: string) => async (req: FastifyRequest) => {
    const { token } = req.params as { token: string };
    const key = `sandbox:${kind}:${req.ip}:${sha256(token).slice(0, 16)}`;
    const { count, resetInSeconds } = await deps.limiter.hit(key, 60);
    if (count > max) {
      throw new AppError(429, 'error.rateLimited', {
        params: { seconds: resetInSeconds },
        headers: { 'retry-after': String(resetInSeconds) },
      });
    }
  };
  const read = limit(READS_PER_MINUTE, 'read');
  const write = limit(WRITES_PER_MINUTE, 'write');

  app.get(
    '/sandbox/:token',
    {
      preHandler: read,
      schema: {
        tags: TAG,
        summary: 'The sandbox page: posts with comments, reviews, conversations',
        params: tokenParams,
        response: { 200: sandboxPageWireSchema },
      },
    },
    async (req) => buildSandboxPage(db, await sandbox.getSandboxObject(db, req.params.token)),
  );

  app.post(
    '/sandbox/:token/posts',
    {
      preHandler: write,
      schema: {
        tags: TAG,
        summary: 'Publish a post as the account',
        params: tokenParams,
        body: z.object({ text }),
        response: { 200: sandboxEntryWireSchema },
      },
    },
    async (req) => {
      const object = await sandbox.getSandboxObject(db, req.params.token);
      return presentSandboxEntry(await sandbox.publishPost(db, object, req.body.text));
    },
  );

  /**
   * A customer writes on the page: `kind`'s body is their name, the text and `extra` fields; `post`
   * stores and delivers it.
   */
  const customerWrite = <Extra extends z.ZodRawShape>(
    kind: 'comments' | 'reviews' | 'messages',
    summary: string,
    extra: Extra,
    post: (
      object: ObjectRow,
      by: { authorName: string; text: string },
      body: z.infer<z.ZodObject<Extra>>,
    ) => Promise<Parameters<typeof presentSandboxEntry>[0]>,
  ) =>
    app.post(
      `/sandbox/:token/${kind}`,
      {
        preHandler: write,
        schema: {
          tags: TAG,
          summary,
          params: tokenParams,
          body: z.object({ author_name: authorName, text, ...extra }),
          response: { 200: sandboxEntryWireSchema },
        },
      },
      async (req) => {
        const object = await sandbox.getSandboxObject(db, req.params.token);
        // The schema above, which TypeScript does not infer through the generic `extra`.
        const body = req.body as { author_name: string; text: string } & z.infer<z.ZodObject<Extra>>;
        const entry = await post(object, { authorName: body.author_name, text: body.text }, body);
        return presentSandboxEntry(entry);
      },
    );

  customerWrite(
    'comments',
    'Comment as a customer (under a post, or replying to a comment with parent_id)',
    { parent_id: z.number().int().positive().optional() },
    (object, by, body) =>
      sandbox.postCustomerComment(serviceDeps, object, { ...by, parentId: body.parent_id }),
  );
  customerWrite(
    'reviews',
    'Leave a review as a customer',
    { rating: z.number().int().min(1).max(5) },
    (object, by, body) => sandbox.postCustomerReview(serviceDeps, object, { ...by, rating: body.rating }),
  );
  customerWrite(
    'messages',
    'Write a private message to the account as a customer',
    { peer: z.string().trim().min(1).max(100).optional() },
    (object, by, body) => sandbox.postCustomerMessage(serviceDeps, object, { ...by, peer: body.peer }),
  );

  app.put(
    '/sandbox/:token/entries/:id',
    {
      preHandler: write,
      schema: {
        tags: TAG,
        summary: "Edit a customer's own comment, review or message",
        params: entryParams,
        body: z.object({ author_name: authorName, text }),
        response: { 200: sandboxEntryWireSchema },
      },
    },
    async (req) => {
      const object = await sandbox.getSandboxObject(db, req.params.token);
      const entry = await sandbox.editCustomerEntry(serviceDeps, object, req.params.id, {
        authorName: req.body.author_name,
        text: req.body.text,
      });
      return presentSandboxEntry(entry);
    },
  );

  app.delete(
    '/sandbox/:token/entries/:id',
    {
      preHandler: write,
      schema: {
        tags: TAG,
        summary: "Delete a customer's own comment, review or message",
        params: entryParams,
        querystring: z.object({ author_name: authorName }),
        response: { 200: okWireSchema },
      },
    },
    async (req) => {
      const object = await sandbox.getSandboxObject(db, req.params.token);
      await sandbox.deleteCustomerEntry(serviceDeps, object, req.params.id, req.query.author_name);
      return { message: 'ok' as const };
    },
  );
}
