import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// Pieces the networks' loopback emulators share (tests and `npm run emulator` only; never the app's code).

/** One request an emulator received, as tests read it back. */
export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  /** The JSON or form body; undefined when empty or unreadable. */
  body: Record<string, unknown> | undefined;
}

export interface ReadOptions {
  /**
   * A body that is not JSON is read as form fields whatever its content-type says (Graph-style APIs
   * take either); without it such a body is undefined.
   */
  formFallback?: boolean;
}

/** A request's body whole, as text. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A request's body as a JSON object: undefined when it is empty or not JSON. */
export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const raw = await readBody(req);
  try {
    return raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a request whole into a RecordedCall (`base`: the emulator's own address, for relative URLs).
 * `raw` is the body's text as it came, for emulators that judge the body itself rather than its fields.
 */
export async function readCall(
  req: IncomingMessage,
  base: string,
  opts: ReadOptions = {},
): Promise<{ url: URL; call: RecordedCall; raw: string }> {
  const url = new URL(req.url ?? '/', base);
  const raw = await readBody(req);
  const isForm = (req.headers['content-type'] ?? '').includes('x-www-form-urlencoded');
  const form = () => Object.fromEntries(new URLSearchParams(raw));
  let body: Record<string, unknown> | undefined;
  try {
    body = isForm ? form() : raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
  } catch {
    body = opts.formFallback ? form() : undefined;
  }
  const call: RecordedCall = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    authorization: req.headers.authorization,
    body,
  };
  return { url, call, raw };
}

/** Answers JSON with a status (and extra headers); `contentType` for networks that name a charset. */
export const jsonReply =
  (res: ServerResponse, contentType = 'application/json') =>
  (status: number, payload: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': contentType, ...headers }).end(JSON.stringify(payload));

/**
 * A server for an emulator's `handle`: a request it fails answers 500 with the error's text (unless an
 * answer was already begun).
 */
export function answeringServer(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>,
): Server {
  return createServer((req, res) =>
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    }),
  );
}

/** Starts `server` on a free port of 127.0.0.1: its base URL (`http://127.0.0.1:PORT`). */
export async function listenLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops `server` (at once when it was never made). */
export function closeServer(server: Server | undefined): Promise<void> {
  return new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
}

/**
 * Meta's check of a callback saved in the app dashboard (Facebook, WhatsApp): a GET handshake the
 * callback must answer 200 with the challenge echoed.
 */
export async function metaHandshake(callbackUrl: string, verifyToken: string) {
  const challenge = randomBytes(8).toString('hex');
  const query = new URLSearchParams({
    'hub.mode': 'subscribe',
    'hub.verify_token': verifyToken,
    'hub.challenge': challenge,
  });
  const res = await fetch(`${callbackUrl}?${query}`);
  const body = await res.text();
  return { status: res.status, body, verified: res.status === 200 && body === challenge };
}
