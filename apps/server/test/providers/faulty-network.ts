import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// TEST-ONLY: the one fault switch for every network emulator (issue 22, Faults). A loopback HTTP proxy
// stands between the app and an emulator: the app's environment is rewritten so every address at the
// emulator goes through it (`rewrite`), and a call matching a queued fault is answered by the proxy
// instead of the emulator — a status with Retry-After, a body that is not what the API sends, or no
// answer at all (the connection is accepted and held until the app's request timeout fires). Every other
// call reaches the emulator unchanged, and the proxy records what came back, so a test counts how many
// times a reply really reached the network.

export type Fault =
  /**
   * A status (with Retry-After when given); `body` is the network's own text for it (HTML otherwise),
   * `headers` its own headers, read when the fault is answered (X's reset is a moment, not a wait).
   */
  | {
      kind: 'status';
      status: number;
      retryAfter?: number;
      body?: string;
      headers?: () => Record<string, string>;
    }
  /** 200 with a body the API never sends (not JSON, or JSON of the wrong shape). */
  | { kind: 'garbage'; body: string }
  /** The connection is accepted and never answered. */
  | { kind: 'hang' };

export interface ProxiedCall {
  method: string;
  path: string;
  body: string;
  /** The fault answered instead, or the emulator's status. */
  outcome: Fault['kind'] | number;
}

interface Queued {
  fault: Fault;
  match: RegExp;
  left: number;
}

export class FaultyNetwork {
  readonly calls: ProxiedCall[] = [];
  private queued: Queued[] = [];
  private target = '';
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FaultyNetwork> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = new FaultyNetwork(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req, res) => void proxy.handle(req, res));
    server.on('connection', (socket) => {
      proxy.sockets.add(socket);
      socket.on('close', () => proxy.sockets.delete(socket));
    });
    return proxy;
  }

  /**
   * The app's environment with every address at the emulator (`emulatorUrl`'s origin) moved to the
   * proxy; the proxy forwards there.
   */
  rewrite(env: Record<string, string>, emulatorUrl: string): Record<string, string> {
    this.target = new URL(emulatorUrl).origin;
    return Object.fromEntries(
      Object.entries(env).map(([key, value]) => [key, value.split(this.target).join(this.url)]),
    );
  }

  /** The next `times` calls whose `METHOD path` matches `match` get `fault` instead of an answer. */
  failNext(fault: Fault, match: RegExp, times = 1) {
    this.queued.push({ fault, match, left: times });
  }

  /** Drops the faults not used yet. */
  clear() {
    this.queued = [];
  }

  /** Calls matching `match` the emulator answered with 2xx (the ones that really happened). */
  delivered(match: RegExp, text?: string) {
    return this.calls.filter(
      (c) =>
        typeof c.outcome === 'number' &&
        c.outcome < 300 &&
        match.test(`${c.method} ${c.path}`) &&
        (text === undefined || c.body.includes(text)),
    ).length;
  }

  /** Calls matching `match` the proxy answered with a fault. */
  faulted(match: RegExp) {
    return this.calls.filter((c) => typeof c.outcome === 'string' && match.test(`${c.method} ${c.path}`))
      .length;
  }

  async close() {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const call: ProxiedCall = { method, path, body: decodeBody(body), outcome: 0 };
    this.calls.push(call);
    const queued = this.queued.find((q) => q.left > 0 && q.match.test(`${method} ${path}`));
    if (queued) {
      queued.left -= 1;
      call.outcome = queued.fault.kind;
      return answerFault(queued.fault, res);
    }
    const upstream = new URL(path, this.target);
    const headers = { ...req.headers, host: upstream.host };
    const forwarded = request(upstream, { method, headers }, (answer) => {
      call.outcome = answer.statusCode ?? 0;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forwarded.on('error', () => {
      call.outcome = 502;
      if (!res.headersSent) res.writeHead(502).end();
    });
    forwarded.end(body);
  }
}

function answerFault(fault: Fault, res: ServerResponse) {
  switch (fault.kind) {
    case 'hang':
      return; // held until the client gives up (or the proxy closes)
    case 'garbage':
      res.writeHead(200, { 'content-type': 'application/json' }).end(fault.body);
      return;
    case 'status': {
      const headers: Record<string, string> = {
        'content-type': fault.body === undefined ? 'text/html' : 'application/json',
      };
      if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
      Object.assign(headers, fault.headers?.());
      res.writeHead(fault.status, headers).end(fault.body ?? `<html><body>${fault.status}</body></html>`);
    }
  }
}

/** Form and JSON bodies as text a test can search (percent-encoding undone). */
function decodeBody(body: Buffer) {
  const text = body.toString('utf8');
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
