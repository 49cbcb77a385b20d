import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ConnectorError } from './types';

// Which addresses a file link found in a network's payload (VK, Viber, MAX CDNs) may make the server
// connect to: public unicast only, classified by ipaddr.js (loopback, private, CGNAT, link-local i.e.
// cloud metadata, unspecified, multicast, reserved, documentation, 6to4/Teredo tunnels... are not).
// IPv4 inside IPv6 (::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d) is judged as the IPv4 address it reaches.

/** What dns.lookup(host, { all: true }) answers. */
export type Resolve = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/**
 * The network public files are fetched over. In production the system resolver and real sockets
 * (`systemNetwork`). Tests build their own (createRuntime's `mediaNetwork`, never configuration): a
 * `resolve` answering for fixture hosts, and a `dial` saying where a socket to an address that has
 * passed the check really goes (an emulator on loopback standing in for a CDN), with `ca` to trust its
 * certificate. Neither skips the check: every address is judged before `dial` sees it.
 */
export interface MediaNetwork {
  resolve: Resolve;
  dial?(address: string, port: number): { host: string; port: number };
  ca?: string;
}

export const systemNetwork: MediaNetwork = {
  resolve: (hostname) => lookup(hostname, { all: true, verbatim: true }),
};

/**
 * Ranges an operator may open with MEDIA_FETCH_PRIVATE=true (files on their own network, e.g. links
 * their systems post to the ingestion API). Link-local (cloud metadata), unspecified, multicast and
 * reserved stay closed even then.
 */
const OPERATOR_OPENABLE = new Set(['private', 'loopback', 'carrierGradeNat', 'uniqueLocal']);

const NAT64 = ipaddr.IPv6.parse('64:ff9b::');
const IPV4_COMPATIBLE = ipaddr.IPv6.parse('::');

/** The address a connection really reaches: embedded IPv4 unwrapped. Null when not an address. */
function effective(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!isIP(address)) return null;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip;
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  if (v6.match(NAT64, 96)) return ipaddr.fromByteArray(v6.toByteArray().slice(12));
  return v6;
}

/** Whether the server may connect to `address` (an IP literal) for a customer's file. */
export function isAllowedAddress(address: string, allowPrivate = false): boolean {
  const ip = effective(address);
  if (!ip) return false;
  const range = ip.range();
  if (range === 'unicast')
    // ::a.b.c.d (IPv4-compatible, deprecated by RFC 4291): nothing public lives there.
    return !(ip.kind() === 'ipv6' && ip.match(IPV4_COMPATIBLE, 96));
  return allowPrivate && OPERATOR_OPENABLE.has(range);
}

/**
 * The addresses to connect to for `hostname` (a URL's hostname, IPv6 brackets allowed): itself when it
 * is an address, else what `resolve` answers — refused unless every answer is allowed, so a name mixing
 * public and private answers cannot reach the private one.
 */
export async function allowedAddresses(
  hostname: string,
  opts: { network: MediaNetwork; allowPrivate: boolean },
): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await opts.network.resolve(host)).map((a) => a.address);
    } catch (error) {
      throw new ConnectorError('temporary', `${host} cannot be resolved: ${(error as Error).message}`, {
        reason: { key: 'failure.unreachable', params: { network: host }, detail: (error as Error).message },
      });
    }
    if (addresses.length === 0)
      throw new ConnectorError('temporary', `${host} cannot be resolved`, {
        reason: { key: 'failure.unreachable', params: { network: host } },
      });
  }
  if (addresses.some((address) => !isAllowedAddress(address, opts.allowPrivate)))
    throw new ConnectorError('permanent', `${host} is a private address`, {
      reason: { key: 'failure.privateAddress', params: { host } },
    });
  return addresses;
}

/**
 * Refuses a link the server must not fetch: not http(s), or a host that is (or resolves to) a
 * non-public address. Decimal, octal and hex IPv4 spellings are normalised by the URL parser first.
 */
export async function assertPublicUrl(
  url: string | URL,
  opts: { network?: MediaNetwork; allowPrivate?: boolean } = {},
): Promise<string[]> {
  const parsed = typeof url === 'string' ? parseUrl(url) : url;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConnectorError('permanent', `Not a web address: ${parsed.href}`, {
      reason: { key: 'failure.notWebAddress', detail: parsed.href },
    });
  return allowedAddresses(parsed.hostname, {
    network: opts.network ?? systemNetwork,
    allowPrivate: opts.allowPrivate ?? false,
  });
}

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new ConnectorError('permanent', `Not a web address: ${url}`, {
      reason: { key: 'failure.notWebAddress', detail: url },
    });
  }
}
