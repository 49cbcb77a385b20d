import { hdeApiBase } from '@otklik/shared';
import { AppError } from '../../lib/errors';

// The HelpDeskEddy REST API v2 (docs/product/hde.md lists what is confirmed and what is assumed):
// base https://<domain>/api/v2/, HTTP Basic auth with the staff email and the API key, JSON bodies,
// answers wrapped in { data: … }.

export interface HdeCredentials {
  domain: string;
  email: string;
  apiKey: string;
}

export interface HdeTicketData {
  id: string;
  /** The ticket's public number when the helpdesk gives one (unique_id), else the id. */
  number: string;
  status: string;
}

export type HdeCheck = 'ok' | 'auth' | 'unreachable';

const TIMEOUT_MS = 10_000;

export class HdeError extends AppError {
  constructor(readonly check: Exclude<HdeCheck, 'ok'> | 'rejected') {
    super(502, check === 'auth' ? 'hde.auth' : check === 'unreachable' ? 'hde.unreachable' : 'hde.rejected', {
      errorType: `hde_${check}`,
    });
  }
}

async function call(creds: HdeCredentials, method: 'GET' | 'POST', path: string, body?: unknown) {
  const auth = Buffer.from(`${creds.email}:${creds.apiKey}`).toString('base64');
  let res: Response;
  try {
    res = await fetch(new URL(path, hdeApiBase(creds.domain)), {
      method,
      headers: {
        authorization: `Basic ${auth}`,
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new HdeError('unreachable');
  }
  if (res.status === 401 || res.status === 403) throw new HdeError('auth');
  if (res.status === 404 && path === 'tickets/?page=1') throw new HdeError('unreachable');
  if (!res.ok) throw new HdeError(res.status >= 500 ? 'unreachable' : 'rejected');
  try {
    return (await res.json()) as { data?: unknown };
  } catch {
    throw new HdeError('unreachable');
  }
}

function ticketOf(answer: { data?: unknown }): HdeTicketData {
  const data = (Array.isArray(answer.data) ? answer.data[0] : answer.data) as
    | Record<string, unknown>
    | undefined;
  if (!data || (typeof data.id !== 'number' && typeof data.id !== 'string')) throw new HdeError('rejected');
  const id = String(data.id);
  const number =
    typeof data.unique_id === 'string' || typeof data.unique_id === 'number' ? String(data.unique_id) : id;
  const status =
    typeof data.status_id === 'string' || typeof data.status_id === 'number' ? String(data.status_id) : '';
  return { id, number, status };
}

/** A cheap authenticated read: the first page of tickets. */
export async function checkConnection(creds: HdeCredentials): Promise<void> {
  await call(creds, 'GET', 'tickets/?page=1');
}

export async function createTicket(
  creds: HdeCredentials,
  ticket: { title: string; description: string; userName: string; userEmail: string | null },
): Promise<HdeTicketData> {
  return ticketOf(
    await call(creds, 'POST', 'tickets/', {
      title: ticket.title,
      description: ticket.description,
      user_name: ticket.userName,
      ...(ticket.userEmail ? { user_email: ticket.userEmail } : {}),
    }),
  );
}

export async function getTicket(creds: HdeCredentials, id: string): Promise<HdeTicketData> {
  return ticketOf(await call(creds, 'GET', `tickets/${encodeURIComponent(id)}/`));
}

/** The agent-side page of a ticket (assumed path, see docs/product/hde.md). */
export function ticketUrl(domain: string, id: string): string {
  return `${hdeApiBase(domain).replace(/api\/v2\/$/, '')}ticket/list/filter/id/1/ticket/${encodeURIComponent(id)}/`;
}
