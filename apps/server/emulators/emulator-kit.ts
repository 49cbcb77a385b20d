import type { IncomingMessage, ServerResponse } from 'node:http';

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
