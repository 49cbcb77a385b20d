import {
  accountErrorsWireSchema,
  accountRevealWireSchema,
  accountSetupWireSchema,
  accountWireSchema,
  connectableProvidersWireSchema,
  connectedAccountWireSchema,
  getProvider,
  okWireSchema,
  type ProviderId,
  sandboxUrlWireSchema,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { type Authenticate, signedInScope } from '../../http/auth';
import { requestLocale } from '../../http/locale';
import { AppError } from '../../lib/errors';
import { connectorContext } from '../../providers/context';
import { connectedProviders, getConnector, isConnectable } from '../../providers/registry';
import type { ObjectRow } from '../../providers/types';
import { registerIngestRoutes } from '../channels/generic-routes';
import { registerSandboxRoutes } from '../channels/sandbox-routes';
import type { AppDeps } from '../deps';
import { assertConnectable, connectAccount, reconnectAccount, verifyTypedCredentials } from './connect';
import { assertAccountManageable, assertAccountVisible, spaceForNewAccount } from './policy';
import { presentAccount, presentAccountError } from './presenter';
import { connectAccountBody, idParams, reconnectAccountBody, updateAccountBody } from './schemas';
import * as accounts from './service';

const TAG = ['accounts'];

/**
 * Settings → accounts (docs/product/screens-and-routes.md, entities.md Object, §6): connect, settings, disconnect, errors. The list
 * GET /v1/objects lives in modules/spaces. The networks' public endpoints that come with accounts —
 * the sandbox page API and the generic ingestion API — are registered here too.
 */
export async function registerObjectsModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const serviceDeps = { db, bus: deps.bus, sealer: deps.sealer, config: deps.config, log: deps.log };
    /** The connector's by-hand setup for this account (Connector.setupInstructions), `{}` when none. */
    const setupOf = (object: ObjectRow): Record<string, string> =>
      getConnector(object.provider)?.setupInstructions?.(connectorContext(serviceDeps, object)) ?? {};

    // What the add-account screen can offer on this server: which networks have a connector, and how
    // each connects (typed fields from the shared CONNECT_FIELDS, an OAuth popup, or nothing).
    app.get(
      '/providers/connectable',
      {
        schema: {
          tags: TAG,
          summary: 'Networks this server can connect',
          response: { 200: connectableProvidersWireSchema },
        },
      },
      async () => ({
        items: connectedProviders()
          .filter((id) => isConnectable(id))
          .map((id) => {
            const connector = getConnector(id)!;
            return {
              id,
              connect: getProvider(id).connect,
              fields: Boolean(connector.verifyCredentials),
              oauth: connector.oauth?.configured(deps.config) ?? false,
              // Networks with more than one way to sign in (Instagram): those this server offers.
              ...(connector.oauth?.logins ? { logins: connector.oauth.logins(deps.config) } : {}),
            };
          }),
      }),
    );

    app.get(
      '/objects/:id',
      {
        schema: {
          tags: TAG,
          summary: 'One connected account',
          params: idParams,
          response: { 200: accountWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        return presentAccount(
          await assertAccountVisible(db, actor, await accounts.getAccount(serviceDeps, req.params.id)),
        );
      },
    );

    app.get(
      '/objects/:id/setup',
      {
        schema: {
          tags: TAG,
          summary: "What to set up on the network's side (WhatsApp: callback URL and verify token)",
          description:
            'Administrators of the account only. `{ instructions }` — empty for networks that need nothing set up by hand.',
          params: idParams,
          response: { 200: accountSetupWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const object = assertAccountManageable(actor, await accounts.getAccount(serviceDeps, req.params.id));
        return { instructions: setupOf(object) };
      },
    );

    app.post(
      '/objects',
      {
        schema: {
          tags: TAG,
          summary: 'Connect an account (sandbox and ingestion-token networks today)',
          description:
            'Administrators only. The response carries, once, what the account needs from outside: `sandbox_url` (the public customer page of a sandbox account) or `ingest_token` (for the collector of a site without a public API). `imported` counts the items imported on connect (up to 100).',
          body: connectAccountBody,
          response: { 200: connectedAccountWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const spaceId = spaceForNewAccount(actor, req.body.space_id);
        // A hidden (legacy) network may have a connector for its old accounts: refused before any network call.
        assertConnectable(req.body.provider);
        const verified = await verifyTypedCredentials(serviceDeps, req.body.provider, req.body.credentials);
        const { object, reveal, imported } = await connectAccount(serviceDeps, {
          provider: req.body.provider,
          spaceId,
          name: req.body.name,
          companyId: req.body.company_id,
          performedBy: actor.userId,
          verified,
          locale: requestLocale(req),
          by: actor,
        });
        return { ...presentAccount(object), ...reveal, imported, setup: setupOf(object) };
      },
    );

    app.post(
      '/objects/:id/reconnect',
      {
        schema: {
          tags: TAG,
          summary: 'Reconnect an account with new credentials (a revoked token, a re-created bot)',
          params: idParams,
          body: reconnectAccountBody,
          response: { 200: accountWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = assertAccountManageable(actor, await accounts.getAccount(serviceDeps, req.params.id));
        const verified = await verifyTypedCredentials(
          serviceDeps,
          row.provider as ProviderId,
          req.body.credentials,
        );
        if (!verified) throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
        return presentAccount(await reconnectAccount(serviceDeps, row, verified));
      },
    );

    app.put(
      '/objects/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Rename an account, move it to a company, change its settings',
          params: idParams,
          body: updateAccountBody,
          response: { 200: accountWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = assertAccountManageable(actor, await accounts.getAccount(serviceDeps, req.params.id));
        return presentAccount(await accounts.updateAccount(serviceDeps, row, req.body, actor.userId, actor));
      },
    );

    app.delete(
      '/objects/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Disconnect an account and remove its content',
          params: idParams,
          response: { 200: okWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = assertAccountManageable(actor, await accounts.getAccount(serviceDeps, req.params.id));
        await accounts.deleteAccount(serviceDeps, row, actor.userId, actor);
        return { message: 'ok' as const };
      },
    );

    app.get(
      '/errors',
      {
        schema: {
          tags: TAG,
          summary: 'Accounts with errors (errors dropdown, settings/errors)',
          response: { 200: accountErrorsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        return { items: (await accounts.findAccountErrors(serviceDeps, actor)).map(presentAccountError) };
      },
    );

    app.post(
      '/objects/:id/clear_error',
      {
        schema: {
          tags: TAG,
          summary: "Dismiss an account's error",
          params: idParams,
          response: { 200: accountWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = assertAccountManageable(actor, await accounts.getAccount(serviceDeps, req.params.id));
        return presentAccount(await accounts.clearAccountError(serviceDeps, row, actor.userId));
      },
    );

    app.post(
      '/objects/:id/token',
      {
        schema: {
          tags: TAG,
          summary: 'Issue a new ingestion token or sandbox address (the old one stops working)',
          params: idParams,
          response: { 200: accountRevealWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = assertAccountManageable(actor, await accounts.getAccount(serviceDeps, req.params.id));
        return accounts.rotateAccountToken(serviceDeps, row);
      },
    );

    app.get(
      '/objects/:id/sandbox_url',
      {
        schema: {
          tags: TAG,
          summary: 'The customer page of a sandbox account',
          params: idParams,
          response: { 200: sandboxUrlWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = assertAccountManageable(actor, await accounts.getAccount(serviceDeps, req.params.id));
        return accounts.getSandboxUrl(serviceDeps, row);
      },
    );
  });
  await registerSandboxRoutes(root, deps);
  await registerIngestRoutes(root, deps);
}

/** An OAuth popup needs the server's app registered at the network (VK_CLIENT_ID / _SECRET). */
