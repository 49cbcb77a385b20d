import { createIngestConnector } from '../generic/connector';
import { type Connector, ConnectorError } from '../types';
import { PulseCheckRefused, verifyPulseCheck } from './check';

// Pulse keeps the generic ingestion path (a collector posts comments, picks replies up): the account is
// an ingest-token account either way. What this adds is the sign-in of SPEC §7 (check.ts): with
// TPULSE_CHECK_SECRET set, the add-account screen offers "sign in with Pulse", and the account is named
// after the profile that signed in (POST v1/tpulse/check_auth, modules/channels/oauth-routes.ts).

export const tpulseConnector: Connector = {
  ...createIngestConnector('tpulse'),
  oauth: {
    configured: (config) => Boolean(config.TPULSE_CHECK_SECRET),
    authorizeUrl(config, opts) {
      const url = new URL(config.TPULSE_AUTH_URL);
      url.searchParams.set('redirect_uri', opts.redirectUri);
      url.searchParams.set('state', opts.state);
      return url.toString();
    },
    // POST v1/tpulse/auth with the check as `code` lands here too.
    async exchange(ctx, opts) {
      try {
        return verifyPulseCheck(ctx.config, opts.code, ctx.now()).account;
      } catch (error) {
        if (error instanceof PulseCheckRefused)
          throw new ConnectorError('auth', `Pulse check refused: ${error.message}`, {
            reason: { key: 'tpulse.invalidCheck' },
          });
        throw error;
      }
    },
  },
};
