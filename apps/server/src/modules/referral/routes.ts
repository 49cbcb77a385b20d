import { payoutBodySchema, referralWireSchema } from '@otklik/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Authenticate, signedInScope } from '../../http/auth';
import { AppError } from '../../lib/errors';
import type { AppDeps } from '../deps';
import { referralReport, requestPayout } from './service';

const TAG = ['referral'];

/** /v1/referral: the partner's link, code, attributed signups, their payments, share and payouts. */
export async function registerReferralRoutes(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const partner = (req: FastifyRequest) => {
      const user = req.auth!.user;
      if (!user.isPartner) throw new AppError(403, 'referral.partnersOnly', { errorType: 'partners_only' });
      return {
        userId: user.id,
        appUrl: deps.config.appUrl,
        sharePercent: deps.config.REFERRAL_SHARE_PERCENT,
      };
    };

    app.get(
      '/referral',
      {
        schema: {
          tags: TAG,
          summary: "The partner's link, code, signups, payments and share",
          response: { 200: referralWireSchema },
        },
      },
      async (req) => referralReport(db, partner(req)),
    );

    app.post(
      '/referral/payouts',
      {
        schema: {
          tags: TAG,
          summary: 'Request a payout of the available share in a currency',
          body: payoutBodySchema,
          response: { 200: referralWireSchema },
        },
      },
      async (req) => requestPayout(db, partner(req), req.body.currency),
    );
  });
}
