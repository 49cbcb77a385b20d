import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { MediaNetwork } from '../src/providers/public-network';
import type { TestApp } from './harness';

// TEST-ONLY: the CDNs that VK, Viber and MAX file links point at, emulated on 127.0.0.1 (HTTP and, with
// a certificate for the fixture hosts, HTTPS). The app reaches it only through the media network test
// hook (createTestApp's `mediaNetwork`): fixture hosts resolve to public addresses, which pass the real
// check, and sockets to those addresses are then dialled here. Names it does not know do not resolve.

const fixtures = join(import.meta.dirname, 'fixtures');
export const CDN_CERT = readFileSync(join(fixtures, 'cdn-cert.pem'), 'utf8');
const CDN_KEY = readFileSync(join(fixtures, 'cdn-key.pem'), 'utf8');

/** Fixture hosts (all in the certificate) and the public addresses they "resolve" to. */
export const CDN_HOSTS: Record<string, string[]> = {
  'sun.vk.example': ['87.240.190.78'],
  'dl-media.viber.com': ['52.0.252.10', '2a05:d018:1c4:5100::10'],
  'i.max.ru': ['155.212.204.14'],
  'cdn.example': ['93.184.215.14'],
};

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestCdn {
  network: MediaNetwork;
  /** Every request received: the Host it was for and the path. */
  hits: Array<{ host: string; path: string }>;
  hitsOf(host: string, path: string): number;
  /** Answers `path` on `host` (any scheme); a buffer is served with `contentType`. */
  route(host: string, path: string, answer: Buffer | Handler, contentType?: string): void;
  close(): Promise<void>;
}

export async function startCdn(hosts: Record<string, string[]> = CDN_HOSTS): Promise<TestCdn> {
  const routes = new Map<string, Handler>();
  const hits: TestCdn['hits'] = [];
  const handle: Handler = (req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = (req.url ?? '/').split('?')[0]!;
    hits.push({ host, path });
    const handler = routes.get(`${host}${path}`);
    if (handler) handler(req, res);
    else res.writeHead(404).end();
  };
  const http = createServer(handle);
  const https = createTlsServer({ cert: CDN_CERT, key: CDN_KEY }, handle);
  await Promise.all([listen(http), listen(https)]);
  const ports = { 80: port(http), 443: port(https) } as Record<number, number>;
  const served = new Set(Object.values(hosts).flat());
  return {
    hits,
    network: {
      resolve: async (hostname) => {
        const addresses = hosts[hostname.toLowerCase()];
        if (!addresses)
          throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
        return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      },
      dial: (address, p) =>
        served.has(address) && ports[p] ? { host: '127.0.0.1', port: ports[p]! } : { host: address, port: p },
      ca: CDN_CERT,
    },
    hitsOf: (host, path) => hits.filter((h) => h.host === host && h.path === path).length,
    route(host, path, answer, contentType = 'application/octet-stream') {
      routes.set(
        `${host}${path}`,
        Buffer.isBuffer(answer)
          ? (_req, res) => res.writeHead(200, { 'content-type': contentType }).end(answer)
          : answer,
      );
    },
    close: async () => {
      await Promise.all([close(http), close(https)]);
    },
  };
}

const listen = (server: Server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server: Server) => (server.address() as AddressInfo).port;
const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/**
 * Our attachment route `route` serves `body`, the file at the CDN link `link`, asked of the CDN once and
 * kept: it is still served after the link expired.
 */
export async function expectKeptFile(
  t: TestApp,
  opts: { cdn: TestCdn; headers: Record<string, string>; route: string; link: string; body: Buffer },
) {
  const { host, pathname } = new URL(opts.link);
  const first = await t.app.inject({ url: opts.route, headers: opts.headers });
  expect(first.statusCode, first.body).toBe(200);
  expect(first.rawPayload.equals(opts.body)).toBe(true);
  opts.cdn.route(host, pathname, (_req, res) => res.writeHead(404).end());
  const again = await t.app.inject({ url: opts.route, headers: opts.headers });
  expect(again.statusCode, again.body).toBe(200);
  expect(again.rawPayload.equals(opts.body)).toBe(true);
  expect(opts.cdn.hitsOf(host, pathname)).toBe(1);
}
