import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import {
  cancelDeletion,
  findDeletionRequest,
  listUserRequests,
  presentDeletionRequest,
  requestDeletion,
  soleMemberSpaces,
} from './deletion';
import type { AuthDeps } from './service';

const requestSchema = z.object({
  id: z.string(),
  status: z.enum(['pending', 'processing', 'done', 'cancelled']),
  created_at: z.number().int().describe('unix seconds'),
  updated_at: z.number().int().describe('unix seconds, the last change of status'),
});
const idParamsSchema = z.object({ id: z.string().min(1).max(128) });
const myRequestsSchema = z.object({
  requests: z.array(requestSchema),
  /** Deleted with the account: the spaces where the user is the only member. */
  spaces: z.array(z.object({ id: z.number().int(), name: z.string() })),
});

/** Data deletion requests (issue 13 item 11); registered inside the /v1 prefix. */
export async function registerDeletionRoutes(
  root: FastifyInstance,
  authDeps: AuthDeps,
  authenticate: Authenticate,
) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = authDeps;
  const mine = async (userId: number) => ({
    requests: (await listUserRequests(db, userId)).map(presentDeletionRequest),
    spaces: await soleMemberSpaces(db, userId),
  });

  app.get(
    '/deleterequest/:id',
    {
      schema: {
        tags: ['auth'],
        summary: 'Public status of a data deletion request: status and dates only; 404 for an unknown id',
        params: idParamsSchema,
        response: { 200: requestSchema },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return presentDeletionRequest(await findDeletionRequest(db, req.params.id));
    },
  );

  await signedInScope(root, authenticate, (app) => {
    app.get(
      '/me/deleterequest',
      {
        schema: {
          tags: ['me'],
          summary: "The user's deletion requests and the spaces their deletion would remove",
          response: { 200: myRequestsSchema },
        },
      },
      async (req) => mine(req.auth!.user.id),
    );

    app.post(
      '/me/deleterequest',
      {
        schema: {
          tags: ['me'],
          summary: 'Request deletion of my data (the open request is returned if there is one)',
          response: { 201: myRequestsSchema.extend({ request: requestSchema }) },
        },
      },
      async (req, reply) => {
        const request = await requestDeletion(db, req.auth!.user.id);
        return reply
          .status(201)
          .send({ request: presentDeletionRequest(request), ...(await mine(req.auth!.user.id)) });
      },
    );

    app.delete(
      '/me/deleterequest/:id',
      {
        schema: {
          tags: ['me'],
          summary: 'Cancel my pending deletion request; 409 once it is processing or closed',
          params: idParamsSchema,
          response: { 200: myRequestsSchema },
        },
      },
      async (req) => {
        await cancelDeletion(db, req.auth!.user.id, req.params.id);
        return mine(req.auth!.user.id);
      },
    );
  });
}
