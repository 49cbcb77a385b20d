import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// TEST-ONLY: an endpoint on 127.0.0.1 that records requests and answers with the given statuses in turn
// (200 once they are used up), and Standard Webhooks verification written from the specification.

export async function startReceiver(statuses: number[] = [], answer = 'ok') {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const status = statuses.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? answer : 'boom');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Statuses still to answer with; tests push more. */
    statuses,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Standard Webhooks verification (HMAC-SHA256 over `id.timestamp.body`, key = base64 after `whsec_`). */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`)
    .digest();
  return String(headers['webhook-signature'])
    .split(' ')
    .some((part) => {
      const [version, signature] = part.split(',');
      const given = Buffer.from(signature ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}
