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

/** Reads a request whole into a RecordedCall (`base`: the emulator's own address, for relative URLs). */
export async function readCall(
  req: IncomingMessage,
  base: string,
): Promise<{ url: URL; call: RecordedCall }> {
  const url = new URL(req.url ?? '/', base);
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  const isForm = (req.headers['content-type'] ?? '').includes('x-www-form-urlencoded');
  let body: Record<string, unknown> | undefined;
  try {
    body = isForm
      ? Object.fromEntries(new URLSearchParams(raw))
      : raw
        ? (JSON.parse(raw) as Record<string, unknown>)
        : undefined;
  } catch {
    body = undefined;
  }
  const call: RecordedCall = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    authorization: req.headers.authorization,
    body,
  };
  return { url, call };
}

/** Answers JSON with a status (and extra headers). */
export const jsonReply =
  (res: ServerResponse) =>
  (status: number, payload: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(payload));
