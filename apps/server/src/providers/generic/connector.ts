import type { ProviderId } from '@otklik/shared';
import { randomToken, sha256 } from '../../lib/crypto';
import type { Connector } from '../types';

// Networks without a public API (catalogue `connect: 'ingest_token'`): a customer's collector posts
// their reviews and comments to POST /v1/ingest/items and picks operators' replies up from
// GET /v1/ingest/replies. "Sending" a reply hands it to that feed; the collector reports the site's id.
// An edit goes the same way: the edited reply is back in the feed with its site id (service.ts).

export const INGEST_TOKEN_BYTES = 32;

export function newIngestToken() {
  const token = `otk_${randomToken(INGEST_TOKEN_BYTES)}`;
  return { token, digest: sha256(token) };
}

export function createIngestConnector(id: ProviderId): Connector {
  return {
    id,
    // Modules learn through this that replies go through the collector's feed (types.ts).
    capabilities: { collectorFeed: true },
    async connect() {
      const { token, digest } = newIngestToken();
      return { ingestTokenDigest: digest, reveal: { ingest_token: token } };
    },
    // Handed to the collector's feed: there is no site id until the collector posts it.
    sendReply: async () => ({ externalId: null }),
    // Edits never queue a network call: moderation.ts puts the edited reply back in the feed at once.
    editReply: async () => {},
  };
}
