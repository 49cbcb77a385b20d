import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ConnectorError, type FetchedMedia } from './types';

// Downloading a network's file for the media proxy (modules/inbox/media.ts): bounded in size and time,
// every failure a ConnectorError the route can show.

export class MediaTooLarge extends ConnectorError {
  constructor(readonly maxBytes: number) {
    super('permanent', `The file is larger than ${maxBytes} bytes`);
  }
}

/** GET `url` and read at most `maxBytes` (a larger body is refused, not cut). */
export async function downloadMedia(
  fetchFn: typeof fetch,
  url: string,
  opts: { maxBytes: number; headers?: Record<string, string>; what: string },
): Promise<FetchedMedia> {
  let response: Response;
  try {
    response = await fetchFn(url, { headers: opts.headers, signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    throw new ConnectorError('temporary', `${opts.what} is unreachable: ${(error as Error).message}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ConnectorError(
      response.status >= 500 ? 'temporary' : 'permanent',
      `${opts.what} answered ${response.status} for the file`,
    );
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > opts.maxBytes) {
    await response.body?.cancel();
    throw new MediaTooLarge(opts.maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > opts.maxBytes) throw new MediaTooLarge(opts.maxBytes);
    chunks.push(Buffer.from(chunk));
  }
  return { body: Buffer.concat(chunks), contentType: response.headers.get('content-type') };
}

// Addresses a file link must not make the server call: loopback, private networks, link-local (cloud
// metadata), carrier-grade NAT, unspecified, and their IPv6 counterparts.
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['::ffff:0:0', 96],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

/**
 * A file link found in a network's payload may be fetched only when every address its host resolves
 * to is public (unless `allowPrivate`: emulators on 127.0.0.1 in tests).
 */
export async function assertPublicUrl(url: string, allowPrivate: boolean): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConnectorError('permanent', `Not a web address: ${url}`);
  if (allowPrivate) return;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: Array<{ address: string; family: number }>;
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true });
  } catch (error) {
    throw new ConnectorError('temporary', `${host} cannot be resolved: ${(error as Error).message}`);
  }
  if (addresses.some((a) => PRIVATE.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4')))
    throw new ConnectorError('permanent', `${host} is a private address`);
}
