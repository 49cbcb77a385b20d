import type { Socket } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import { allowedAddresses, type MediaNetwork, systemNetwork } from './public-network';
import { ConnectorError, type FetchedMedia } from './types';

// Downloading a network's file for the media proxy (modules/inbox/media.ts): bounded in size and time,
// every failure a ConnectorError the route can show. `downloadMedia` fetches from a network's own API
// (Telegram, WhatsApp, Avito: addresses the operator configured); `downloadPublicMedia` fetches a link
// found in a customer's message, which may point anywhere, so only at public addresses.

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
    throw new ConnectorError('temporary', `${opts.what} is unreachable: ${(error as Error).message}`, {
      reason: {
        key: 'failure.unreachable',
        params: { network: opts.what },
        detail: (error as Error).message,
      },
    });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ConnectorError(
      response.status >= 500 ? 'temporary' : 'permanent',
      `${opts.what} answered ${response.status} for the file`,
      {
        reason: {
          key: 'failure.badAnswer',
          params: { network: opts.what },
          detail: `HTTP ${response.status}`,
        },
      },
    );
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > opts.maxBytes) {
    await response.body?.cancel();
    throw new MediaTooLarge(opts.maxBytes);
  }
  return {
    body: await readAtMost(response.body ?? [], opts.maxBytes),
    contentType: response.headers.get('content-type'),
  };
}

async function readAtMost(
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  maxBytes: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) throw new MediaTooLarge(maxBytes);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface PublicDownload {
  maxBytes: number;
  what: string;
  network?: MediaNetwork;
  /** MEDIA_FETCH_PRIVATE=true: the operator's opt-in to files on their own network. */
  allowPrivate?: boolean;
  /** Redirects followed at most (each one checked like the first link). */
  maxRedirects?: number;
  /** For the whole download, redirects included. */
  timeoutMs?: number;
}

/**
 * GET a link from a customer's message: every hop's address is checked when its socket is opened (so
 * a name that resolves publicly for a check and privately a moment later cannot slip through: the
 * socket goes to the very address that was checked), redirects are followed by hand and limited, the
 * body is bounded in size and the whole download in time.
 */
export async function downloadPublicMedia(url: string, opts: PublicDownload): Promise<FetchedMedia> {
  const network = opts.network ?? systemNetwork;
  const allowPrivate = opts.allowPrivate ?? false;
  const maxRedirects = opts.maxRedirects ?? 5;
  const signal = AbortSignal.timeout(opts.timeoutMs ?? 60_000);
  const agent = new Agent({ connect: guardedConnector(network, allowPrivate) });
  try {
    let target = webUrl(url);
    for (let hop = 0; ; hop++) {
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(target, { dispatcher: agent, signal, headers: { 'user-agent': 'Otklik' } });
      } catch (error) {
        if (error instanceof ConnectorError) throw error;
        throw new ConnectorError('temporary', `${opts.what} is unreachable: ${(error as Error).message}`, {
          reason: {
            key: 'failure.unreachable',
            params: { network: opts.what },
            detail: (error as Error).message,
          },
        });
      }
      const { statusCode, headers, body } = response;
      if (REDIRECTS.has(statusCode)) {
        await body.dump();
        const location = headers.location;
        if (typeof location !== 'string')
          throw new ConnectorError('permanent', `${opts.what} redirected nowhere (${statusCode})`, {
            reason: {
              key: 'failure.badAnswer',
              params: { network: opts.what },
              detail: `HTTP ${statusCode}`,
            },
          });
        if (hop >= maxRedirects)
          throw new ConnectorError('permanent', `${opts.what} redirected more than ${maxRedirects} times`, {
            reason: {
              key: 'failure.badAnswer',
              params: { network: opts.what },
              detail: 'too many redirects',
            },
          });
        target = webUrl(location, target);
        continue;
      }
      if (statusCode < 200 || statusCode > 299) {
        await body.dump();
        throw new ConnectorError(
          statusCode >= 500 ? 'temporary' : 'permanent',
          `${opts.what} answered ${statusCode} for the file`,
          {
            reason: {
              key: 'failure.badAnswer',
              params: { network: opts.what },
              detail: `HTTP ${statusCode}`,
            },
          },
        );
      }
      if (Number(headers['content-length'] ?? 0) > opts.maxBytes) throw new MediaTooLarge(opts.maxBytes);
      try {
        const contentType = headers['content-type'];
        return {
          body: await readAtMost(body, opts.maxBytes),
          contentType: typeof contentType === 'string' ? contentType : null,
        };
      } catch (error) {
        if (error instanceof ConnectorError) throw error;
        throw new ConnectorError(
          'temporary',
          `${opts.what} broke off the file: ${(error as Error).message}`,
          {
            reason: {
              key: 'failure.unreachable',
              params: { network: opts.what },
              detail: (error as Error).message,
            },
          },
        );
      }
    }
  } finally {
    // Sockets of an unfinished body (too large, timed out) are dropped with the agent.
    await agent.destroy();
  }
}

function webUrl(location: string, base?: URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(location, base);
  } catch {
    throw new ConnectorError('permanent', `Not a web address: ${location}`, {
      reason: { key: 'failure.notWebAddress', detail: location },
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConnectorError('permanent', `Not a web address: ${parsed.href}`, {
      reason: { key: 'failure.notWebAddress', detail: parsed.href },
    });
  return parsed;
}

/**
 * undici's connector, opening sockets only to addresses `allowedAddresses` accepts (see
 * downloadPublicMedia), trying them in the resolver's order until one answers.
 */
export function guardedConnector(network: MediaNetwork, allowPrivate: boolean): buildConnector.connector {
  const connect = buildConnector({ ...(network.ca ? { ca: network.ca } : {}) });
  const open = (options: buildConnector.Options, address: string) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    const to = network.dial?.(address, port) ?? { host: address, port };
    // `host` (name:port) stays: TLS still checks the certificate for the name, not the address.
    return new Promise<Socket>((resolve, reject) =>
      connect({ ...options, hostname: to.host, port: String(to.port) }, (error, socket) =>
        error ? reject(error) : resolve(socket!),
      ),
    );
  };
  return (options, callback) => {
    (async () => {
      const addresses = await allowedAddresses(options.hostname, { network, allowPrivate });
      let failure: unknown;
      for (const address of addresses) {
        try {
          return await open(options, address);
        } catch (error) {
          failure = error;
        }
      }
      throw failure;
    })().then(
      (socket) => callback(null, socket),
      (error: Error) => callback(error, null),
    );
  };
}
