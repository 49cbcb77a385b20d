import { WebSocket } from 'ws';

/** A websocket client that records every message and can wait for one matching a predicate. */
export async function openSocket(url: string) {
  const messages: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  const ws = new WebSocket(url);
  // How the server closed it: code and reason (application codes in src/realtime/sessions.ts).
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) }));
  });
  ws.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as Record<string, unknown>);
    for (const wake of waiters) wake();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });

  async function waitFor(predicate: (m: Record<string, unknown>) => boolean, timeoutMs = 5_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`No matching socket message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        waiters.add(wake);
      });
    }
  }

  /** The close the server made, or an error after timeoutMs (the socket is still open). */
  async function waitForClose(timeoutMs = 5_000) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Socket still open after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([closed, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    ws,
    messages,
    waitFor,
    waitForClose,
    send: (message: Record<string, unknown>) => ws.send(JSON.stringify(message)),
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === ws.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close();
      }),
  };
}

/** Status code of a refused upgrade (e.g. 401 for a bad token). */
export function refusedUpgrade(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('open', () => reject(new Error('socket opened')));
    ws.once('error', () => {});
  });
}
