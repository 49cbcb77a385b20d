// The benchmarks' HTTP client: node:http with keep-alive sockets, one per concurrent caller. Lighter
// than fetch (no WHATWG streams per request), so the load generator, which shares the machine's two
// cores with the server it measures, takes as little of them as it can.
import http from 'node:http';

export function createClient(concurrency) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  /** Resolves with the status once the whole response has been read. */
  const send = (url, { method = 'GET', headers = {}, body } = {}) =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method, headers, agent }, (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  return { send, close: () => agent.destroy() };
}
