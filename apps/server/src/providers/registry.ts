import { getProvider, isProviderId, PROVIDER_IDS, type ProviderId } from '@otklik/shared';
import { appfollowConnectors } from './appfollow/connector';
import { asodeskConnectors } from './asodesk/connector';
import { avitoConnector } from './avito/connector';
import { discordConnector } from './discord/connector';
import { facebookConnector } from './facebook/connector';
import { createIngestConnector } from './generic/connector';
import { gmapsConnector } from './gmaps/connector';
import { googleplayConnector } from './googleplay/connector';
import { instagramConnector } from './instagram/connector';
import { jivoConnector } from './jivo/connector';
import { maxConnector } from './max/connector';
import { okConnector } from './ok/connector';
import { rustoreConnector } from './rustore/connector';
import { sandboxConnector } from './sandbox/connector';
import { telegramConnector } from './telegram/connector';
import { threadsConnector } from './threads/connector';
import { tiktokConnector } from './tiktok/connector';
import { tpulseConnector } from './tpulse/connector';
import { twitterConnector } from './twitter/connector';
import type { Connector, ConnectorCapabilities } from './types';
import { userechoConnector } from './userecho/connector';
import { useresponseConnector } from './useresponse/connector';
import { viberConnector } from './viber/connector';
import { vkConnector } from './vk/connector';
import { whatsappConnector } from './whatsapp/connector';
import { youtubeConnector } from './youtube/connector';

// One registration line per network (CONVENTIONS §7). Networks without a public API (catalogue
// `connect: 'ingest_token'`) share the generic ingestion connector.

const connectors = new Map<ProviderId, Connector>();

/** Adds (or replaces) a network's connector; returns the undo (tests put stand-ins in this way). */
export function registerConnector(connector: Connector): () => void {
  const previous = connectors.get(connector.id);
  connectors.set(connector.id, connector);
  return () => {
    if (previous) connectors.set(connector.id, previous);
    else connectors.delete(connector.id);
  };
}
const register = registerConnector;

/** Takes a network's connector away (tests: a network this server cannot connect); returns the undo. */
export function removeConnector(provider: ProviderId): () => void {
  const previous = connectors.get(provider);
  connectors.delete(provider);
  return () => {
    if (previous) connectors.set(provider, previous);
  };
}

register(sandboxConnector);
register(vkConnector);
register(telegramConnector);
register(maxConnector);
register(whatsappConnector);
register(viberConnector);
register(avitoConnector);
register(facebookConnector);
register(instagramConnector);
register(tiktokConnector);
register(discordConnector);
register(youtubeConnector);
register(googleplayConnector);
register(rustoreConnector);
register(jivoConnector);
register(okConnector);
register(userechoConnector);
register(useresponseConnector);
for (const c of [...appfollowConnectors, ...asodeskConnectors]) register(c);
register(threadsConnector);
register(gmapsConnector);
register(twitterConnector);
for (const id of PROVIDER_IDS.filter((p) => getProvider(p).connect === 'ingest_token')) {
  register(createIngestConnector(id));
}
// Pulse: the generic ingestion connector plus its sign-in (SPEC §7 POST v1/tpulse/check_auth).
register(tpulseConnector);

/** The connector of a provider, or undefined when the network is not connected to anything yet. */
export function getConnector(provider: string): Connector | undefined {
  return isProviderId(provider) ? connectors.get(provider) : undefined;
}

const NONE: ConnectorCapabilities = Object.freeze({});

/** The optional extras of a provider's connector (none when it has no connector): how modules ask. */
export function capabilitiesOf(provider: string): ConnectorCapabilities {
  return getConnector(provider)?.capabilities ?? NONE;
}

/** Providers an account can be connected to on this server today (docs/product/entities.md catalogue, not hidden). */
export function isConnectable(provider: string): provider is ProviderId {
  if (!isProviderId(provider)) return false;
  const entry = getProvider(provider);
  return !entry.hidden && connectors.has(provider);
}

/** Providers this process has a connector for. */
export function connectedProviders(): ProviderId[] {
  return [...connectors.keys()];
}

/** A way to look connectors up; the outbox worker takes one so tests can put a failing network in. */
export type ConnectorLookup = (provider: string) => Connector | undefined;
