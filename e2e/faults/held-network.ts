// A pass-through proxy in front of a network emulator that can hold the answers of one method: the call
// reaches the network (which counts it) but its answer is kept until release() — the moment a test wants
// to put a fault between "the network did it" and "the app knows it".
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldNetwork {
  url: string;
  /** How many answers are held now. */
  held(): number;
  hold(on: boolean): void;
  /** Lets every held answer go. */
  release(): void;
  close(): Promise<void>;
}

export async function holdAnswers(upstream: string, method: RegExp): Promise<HeldNetwork> {
  let holding = false;
  const waiting: Array<() => void> = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(req.headers))
      if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(key))
        headers[key] = value;
    try {
      const answer = await fetch(`${upstream}${req.url}`, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await answer.arrayBuffer());
      if (holding && method.test(req.url ?? '')) await new Promise<void>((resolve) => waiting.push(resolve));
      res.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
      });
      res.end(body);
    } catch (error) {
      res.writeHead(502).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => waiting.length,
    hold: (on) => {
      holding = on;
    },
    release: () => {
      for (const go of waiting.splice(0)) go();
    },
    close: async () => {
      for (const go of waiting.splice(0)) go();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
