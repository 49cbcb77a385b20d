import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local stand-in for an OpenAI-compatible chat-completions API (issue 21): POST /v1/chat/completions,
// with `stream: false` (one JSON answer) or `stream: true` (server-sent events: one `data:` chunk per word
// with `choices[0].delta.content`, then `data: [DONE]`). It records every request (headers and JSON body) and answers what the test set:
// a text, an HTTP status, or a delay longer than the caller's timeout. Used by the server tests and
// the e2e test.

export interface StubRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; messages?: { role: string; content: string }[]; stream?: boolean };
}

export interface OpenAiStub {
  /** e.g. http://127.0.0.1:PORT/v1 — what an agent's base URL is set to. */
  baseUrl: string;
  requests: StubRequest[];
  /**
   * The next answers: text (200), a status with an error body, or a delay in ms before answering.
   * Streaming: `hold` keeps the stream open after its first chunk (until the caller goes away);
   * `breakAfter` drops the connection after that many chunks.
   */
  reply: { text: string; status: number; delayMs: number; hold: boolean; breakAfter: number };
  /** Streams the caller closed before their end (the operator cancelled). */
  cancelled: number;
  /** Resolves when the next stream is closed by the caller. */
  nextCancel(): Promise<void>;
  close(): Promise<void>;
}

export async function startOpenAiStub(): Promise<OpenAiStub> {
  const requests: StubRequest[] = [];
  const reply = {
    text: 'Здравствуйте! Спасибо, что написали.',
    status: 200,
    delayMs: 0,
    hold: false,
    breakAfter: 0,
  };
  let cancelled = 0;
  let cancelWaiters: (() => void)[] = [];
  const stream = (res: import('node:http').ServerResponse, model: string) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const pieces = reply.text.match(/\S+\s*/g) ?? [];
    const chunk = (content: string) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-s', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: { content } }] })}\n\n`;
    res.on('close', () => {
      if (res.writableFinished) return;
      cancelled++;
      const waiters = cancelWaiters;
      cancelWaiters = [];
      for (const resolve of waiters) resolve();
    });
    res.write(': keep-alive comment\n\n');
    for (const [index, piece] of pieces.entries()) {
      if (reply.breakAfter && index === reply.breakAfter - 1) {
        // Drop the connection once this chunk has reached the socket: no [DONE], no end of the body.
        res.write(chunk(piece), () => res.socket?.destroy());
        return;
      }
      res.write(chunk(piece));
      if (reply.hold) return;
    }
    res.end('data: [DONE]\n\n');
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      let body: StubRequest['body'] = {};
      try {
        body = JSON.parse(raw || '{}');
      } catch {}
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      const answer = () => {
        if (res.destroyed) return;
        if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
          return;
        }
        if (reply.status !== 200) {
          res
            .writeHead(reply.status, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: { message: 'stub failure', type: 'server_error' } }));
          return;
        }
        if (body.stream) {
          stream(res, body.model ?? 'stub');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-${requests.length}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: body.model ?? 'stub',
            choices: [
              { index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' },
            ],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
      };
      if (reply.delayMs > 0) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply,
    get cancelled() {
      return cancelled;
    },
    nextCancel: () => new Promise<void>((resolve) => cancelWaiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
