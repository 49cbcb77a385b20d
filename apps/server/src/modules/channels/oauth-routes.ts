import {
  isProviderId,
  oauthConnectWireSchema,
  oauthStartWireSchema,
  type ProviderId,
  type PulseCheckWire,
  pulseCheckWireSchema,
} from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { objects } from '../../db/schema';
import { type Authenticate, signedInScope } from '../../http/auth';
import { AppError } from '../../lib/errors';
import { networkFetch } from '../../providers/http';
import { getConnector } from '../../providers/registry';
import { PulseCheckRefused, verifyPulseCheck } from '../../providers/tpulse/check';
import type { AppDeps } from '../deps';
import { asConnectFailure, connectAccount } from '../objects/connect';
import { spaceForNewAccount } from '../objects/policy';
import { presentAccount } from '../objects/presenter';
import type { ServerActor } from '../spaces/actor';

const STATE_TTL_MS = 10 * 60_000;
/** More callback pages a provider's popup may come back to (SPEC §7: /callback/google for gmaps). */
const CALLBACK_ALIASES: Partial<Record<string, string[]>> = { gmaps: ['google'] };

interface ConnectState {
  provider: ProviderId;
  userId: number;
  spaceId: number;
  redirectUri: string;
  expiresAt: number;
  /** Which way of signing in (Connector.oauth.logins), when the network has more than one. */
  login?: string;
}

/**
 * Connecting an account through the network's OAuth popup (docs/product/screens-and-routes.md /callback/{provider}, §7 POST
 * v1/{provider}/auth). `start` sends the popup to the network with a sealed, 10-minute state that binds
 * the user, the space and the callback address; the callback page posts the code back here.
 */
export async function registerOAuthConnectRoutes(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const db = deps.database.db;
    const accountDeps = { db, bus: deps.bus, sealer: deps.sealer, config: deps.config, log: deps.log };

    const oauthOf = (provider: string) => {
      const connector = isProviderId(provider) ? getConnector(provider) : undefined;
      if (!connector?.oauth) throw new AppError(404, 'account.notAvailable');
      return { provider: provider as ProviderId, oauth: connector.oauth };
    };

    const checkRedirect = (provider: string, redirectUri: string) => {
      const paths = [provider, ...(CALLBACK_ALIASES[provider] ?? [])];
      if (!paths.some((path) => redirectUri.split('?')[0] === `${deps.config.appUrl}/callback/${path}`)) {
        throw new AppError(400, 'error.invalidRedirectUri', { errorType: 'invalid_redirect_uri' });
      }
    };

    const invalidState = () => new AppError(400, 'error.invalidState', { errorType: 'invalid_state' });

    /** The sealed state names this provider, this user, a live moment and a space they may still add to. */
    const connectingActor = (
      { actor }: { actor: ServerActor },
      provider: ProviderId,
      state: ConnectState,
    ) => {
      if (state.provider !== provider || state.userId !== actor.userId || state.expiresAt < Date.now())
        throw invalidState();
      spaceForNewAccount(actor, state.spaceId);
      return actor;
    };

    app.get(
      '/:provider/auth/start',
      {
        schema: {
          tags: ['accounts'],
          summary: "The network's authorization address for connecting an account in a popup",
          params: z.object({ provider: z.string() }),
          querystring: z.object({
            redirect_uri: z.string().url(),
            space_id: z.coerce.number().int().optional(),
            /** Instagram: `facebook` (the default) or `instagram` (Instagram Login). */
            login: z.string().max(32).optional(),
          }),
          response: { 200: oauthStartWireSchema },
        },
      },
      async (req) => {
        const { provider, oauth } = oauthOf(req.params.provider);
        checkRedirect(provider, req.query.redirect_uri);
        const { actor } = req;
        const spaceId = spaceForNewAccount(actor, req.query.space_id);
        const login = req.query.login;
        if (login !== undefined && !(oauth.logins?.(deps.config) ?? []).includes(login))
          throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
        const state: ConnectState = {
          provider,
          userId: actor.userId,
          spaceId,
          redirectUri: req.query.redirect_uri,
          expiresAt: Date.now() + STATE_TTL_MS,
          ...(login ? { login } : {}),
        };
        const sealed = deps.sealer.seal(JSON.stringify(state));
        // The popup is opened by the web app, which needs the address, not a redirect (it sends a bearer).
        return {
          url: oauth.authorizeUrl(deps.config, { redirectUri: req.query.redirect_uri, state: sealed, login }),
        };
      },
    );

    app.post(
      '/:provider/auth',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Finish connecting an account: the code from the network popup',
          params: z.object({ provider: z.string() }),
          body: z.object({
            code: z.string().optional(),
            redirect_uri: z.string(),
            state: z.string().optional(),
            error: z.string().optional(),
            // SPEC §7: X's OAuth 1.0a names; accepted, though X is connected by OAuth 2.0 with PKCE (`code`).
            oauth_token: z.string().optional(),
            oauth_verifier: z.string().optional(),
          }),
          response: { 200: oauthConnectWireSchema },
        },
      },
      async (req) => {
        const { provider, oauth } = oauthOf(req.params.provider);
        if (req.body.error) throw new AppError(400, 'error.accessDenied', { errorType: 'access_denied' });
        if (!req.body.code) throw new AppError(400, 'error.missingCode', { errorType: 'missing_code' });
        const state = openState(deps.sealer.open.bind(deps.sealer), req.body.state);
        if (!state || state.redirectUri !== req.body.redirect_uri) throw invalidState();
        const actor = connectingActor(req, provider, state);
        let verified: Awaited<ReturnType<typeof oauth.exchange>>;
        try {
          verified = await oauth.exchange(
            { config: deps.config, fetch: networkFetch(deps.config), now: () => new Date() },
            {
              code: req.body.code,
              redirectUri: req.body.redirect_uri,
              state: req.body.state,
              login: state.login,
            },
          );
        } catch (error) {
          throw asConnectFailure(error);
        }
        const { others = [], ...main } = verified;
        const { object, imported } = await connectAccount(accountDeps, {
          provider,
          spaceId: state.spaceId,
          performedBy: actor.userId,
          verified: main,
        });
        // The same consent may give more accounts (Facebook: every Page chosen in its dialog).
        const more = [];
        for (const other of others) {
          try {
            const connected = await connectAccount(accountDeps, {
              provider,
              spaceId: state.spaceId,
              performedBy: actor.userId,
              verified: other,
            });
            more.push({ ...presentAccount(connected.object), imported: connected.imported });
          } catch (error) {
            req.log.warn(
              { provider, err: (error as Error).message },
              'A further account of the consent was not connected',
            );
          }
        }
        return {
          status: 'ok' as const,
          source: provider,
          object: { ...presentAccount(object), imported },
          ...(more.length > 0 ? { others: more } : {}),
        };
      },
    );
    // SPEC §7 `POST v1/tpulse/check_auth {check}`: Pulse's sign-in sends the person back to /callback/tpulse
    // with a signed `check` (providers/tpulse/check.ts) that carries our state. A profile already connected
    // in that space is answered with its account as it stands; a new one is connected (ingest token shown once).
    app.post(
      '/tpulse/check_auth',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Finish connecting a Pulse profile: the signed check Pulse sent back',
          body: z.object({ check: z.string().min(1).max(8192) }),
          response: { 200: pulseCheckWireSchema },
        },
      },
      async (req): Promise<PulseCheckWire> => {
        let checked: ReturnType<typeof verifyPulseCheck>;
        try {
          checked = verifyPulseCheck(deps.config, req.body.check, new Date());
        } catch (error) {
          if (!(error instanceof PulseCheckRefused)) throw error;
          req.log.warn({ reason: error.message }, 'Pulse check refused');
          throw new AppError(400, 'tpulse.invalidCheck', { errorType: 'invalid_check' });
        }
        const state = openState(deps.sealer.open.bind(deps.sealer), checked.state);
        if (!state) throw invalidState();
        const actor = connectingActor(req, 'tpulse', state);
        const [existing] = await db
          .select()
          .from(objects)
          .where(
            and(
              eq(objects.spaceId, state.spaceId),
              eq(objects.provider, 'tpulse'),
              eq(objects.externalId, checked.account.externalId),
            ),
          )
          .limit(1);
        if (existing)
          return {
            status: 'ok',
            source: 'tpulse',
            object: presentAccount(existing),
            existing: true,
          } as const;
        const { object, imported, reveal } = await connectAccount(accountDeps, {
          provider: 'tpulse',
          spaceId: state.spaceId,
          performedBy: actor.userId,
          verified: checked.account,
        });
        return {
          status: 'ok',
          source: 'tpulse',
          object: { ...presentAccount(object), imported },
          existing: false,
          ...reveal,
        };
      },
    );
  });
}

function openState(open: (value: string) => string, sealed: string | undefined): ConnectState | undefined {
  if (!sealed) return undefined;
  try {
    return JSON.parse(open(sealed)) as ConnectState;
  } catch {
    return undefined;
  }
}
