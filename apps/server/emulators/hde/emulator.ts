import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listenLoopback, readBody } from '../emulator-kit';

// TEST-ONLY: HelpDeskEddy on 127.0.0.1, speaking the API shape docs/product/hde.md describes:
// `{base}/api/v2/…`, HTTP Basic auth (staff email : API key) — 401 otherwise; JSON answers wrapped in
// `{ data }`. GET tickets/?page=1 (a page of tickets), POST tickets/ (title, description required;
// user_name, user_email optional → 201 { data: { id, unique_id, title, status_id: 'open', … } }),
// GET tickets/{id}/ (404 when unknown). Tests change a ticket's status with `setStatus`.

export interface HdeEmulatedTicket {
  id: number;
  unique_id: string;
  title: string;
  description: string;
  user_name: string | null;
  user_email: string | null;
  status_id: string;
}

export interface HdeEmulator {
  /** http://127.0.0.1:<port> — what the integration's domain field takes. */
  url: string;
  email: string;
  apiKey: string;
  tickets: HdeEmulatedTicket[];
  /** The Authorization headers seen, to check how the key travels. */
  authHeaders: string[];
  setStatus(id: number, status: string): void;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req);
  try {
    return JSON.parse(raw || '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startHdeEmulator(opts: { email?: string; apiKey?: string } = {}): Promise<HdeEmulator> {
  const email = opts.email ?? 'agent@example.com';
  const apiKey = opts.apiKey ?? 'hde-key-123';
  const tickets: HdeEmulatedTicket[] = [];
  const authHeaders: string[] = [];
  const expected = `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      authHeaders.push(req.headers.authorization ?? '');
      if (!url.pathname.startsWith('/api/v2/')) return send(res, 404, { errors: ['Not found'] });
      if (req.headers.authorization !== expected) return send(res, 401, { errors: ['Unauthorized'] });
      const path = url.pathname.slice('/api/v2/'.length);
      if (req.method === 'GET' && path === 'tickets/') {
        return send(res, 200, {
          data: tickets.slice(0, 30),
          pagination: { total: tickets.length, current_page: 1 },
        });
      }
      if (req.method === 'POST' && path === 'tickets/') {
        const body = await readJson(req);
        if (typeof body.title !== 'string' || !body.title || typeof body.description !== 'string')
          return send(res, 400, { errors: ['title and description are required'] });
        const id = tickets.length + 1;
        const ticket: HdeEmulatedTicket = {
          id,
          unique_id: `${1000 + id}`,
          title: body.title,
          description: body.description,
          user_name: typeof body.user_name === 'string' ? body.user_name : null,
          user_email: typeof body.user_email === 'string' ? body.user_email : null,
          status_id: 'open',
        };
        tickets.push(ticket);
        return send(res, 201, { data: ticket });
      }
      const one = /^tickets\/(\d+)\/?$/.exec(path);
      if (req.method === 'GET' && one) {
        const ticket = tickets.find((t) => t.id === Number(one[1]));
        return ticket ? send(res, 200, { data: ticket }) : send(res, 404, { errors: ['Ticket not found'] });
      }
      return send(res, 404, { errors: ['Not found'] });
    })();
  });
  const url = await listenLoopback(server);
  return {
    url,
    email,
    apiKey,
    tickets,
    authHeaders,
    setStatus(id, status) {
      const ticket = tickets.find((t) => t.id === id);
      if (ticket) ticket.status_id = status;
    },
    close: () => closeServer(server),
  };
}
