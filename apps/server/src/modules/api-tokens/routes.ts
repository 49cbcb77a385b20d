import {
  apiTokensWireSchema,
  createApiTokenBody,
  createdApiTokenWireSchema,
  okTrueWireSchema,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { audit } from '../audit/record';
import type { AppDeps } from '../deps';
import { adminSpaceIds, assertManageable, assertSessionLogin, authorizeCreate } from './policy';
import { presentApiToken } from './presenter';
import * as service from './service';

const TAG = ['api'];
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** API tokens for scripts and integrations (issue 14 item 9): list, create (secret shown once), revoke. */
export async function registerApiTokensModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;

    app.get(
      '/api_tokens',
      {
        schema: {
          tags: TAG,
          summary: 'Own personal tokens and the space tokens one administers',
          response: { 200: apiTokensWireSchema },
        },
      },
      async (req) => {
        assertSessionLogin(req.auth);
        const { actor } = req;
        const admin = adminSpaceIds(actor);
        const rows = await service.listApiTokens(db, actor.userId, admin);
        return { items: rows.map(presentApiToken), admin_space_ids: admin };
      },
    );

    app.post(
      '/api_tokens',
      {
        schema: {
          tags: TAG,
          summary: 'Create a token (the secret is returned once)',
          body: createApiTokenBody,
          response: { 200: createdApiTokenWireSchema },
        },
      },
      async (req) => {
        assertSessionLogin(req.auth);
        const { actor } = req;
        authorizeCreate(actor, req.body.kind, req.body.space_id ?? null);
        const { row, secret } = await service.createApiToken(db, actor, req.body);
        // The action log is per space: a personal token for every space of its user is the user's own.
        if (row.spaceId !== null)
          await audit(db, actor, {
            spaceId: row.spaceId,
            kind: 'api_token.created',
            target: { type: 'api_token', id: row.id, label: row.name },
            after: { kind: row.kind, role: row.role, expires_at: row.expiresAt },
          });
        return { token: presentApiToken(row), secret };
      },
    );

    app.delete(
      '/api_tokens/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Revoke a token',
          params: idParams,
          response: { 200: okTrueWireSchema },
        },
      },
      async (req) => {
        assertSessionLogin(req.auth);
        const { actor } = req;
        const token = assertManageable(actor, await service.getApiToken(db, req.params.id));
        await service.revokeApiToken(db, req.params.id);
        if (token.spaceId !== null)
          await audit(db, actor, {
            spaceId: token.spaceId,
            kind: 'api_token.revoked',
            target: { type: 'api_token', id: token.id, label: token.name },
          });
        return { ok: true as const };
      },
    );
  });
}
