import { once } from 'node:events';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, loginTokens } from '../test/auth-helpers';
import { createTestApp, type TestApp, uniqueEmail } from '../test/harness';
import { type ServerProcess, startServerProcess } from '../test/process';
import { openSocket } from '../test/socket';

// Graceful shutdown (README "Deploying"): readiness turns 503 at once, sockets are closed with 1001 so
// browsers reconnect to another node, requests in flight complete, the process exits 0.

describe('runtime.shutdown', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers /readyz 503 "draining" at once, then closes every socket with 1001', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const { email } = await buildUser(t);
    const token = (await loginTokens(t, email)).access_token;
    const socket = await openSocket(`ws://127.0.0.1:${port}/v1/ws?access_token=${token}`);
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);

    const stopped = t.shutdown({ delayMs: 100 });
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'draining' });
    // Still serving while the load balancer catches up.
    expect((await t.app.inject({ url: '/livez' })).statusCode).toBe(200);
    await stopped;
    expect(await socket.waitForClose()).toEqual({ code: 1001, reason: 'server_shutdown' });
  }, 60_000);
});

describe('SIGTERM to the server process', () => {
  let server: ServerProcess | undefined;
  afterAll(() => server?.dispose());

  it('finishes the request in flight and exits 0', async () => {
    server = await startServerProcess({ LOG_LEVEL: 'info', SHUTDOWN_DELAY_S: '1' });
    const { base, child, exited } = server;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    // A signup whose headers the server has taken (it answered 100 Continue) and whose body is not sent yet.
    const body = JSON.stringify({
      name: 'S',
      email: uniqueEmail('shutdown'),
      password: 'Shutdown-pw1!',
      company: 'C',
    });
    const req = request(`${base}/v1/signup`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        expect: '100-continue',
      },
    });
    const response = new Promise<{ status: number; text: string }>((resolveRes, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += String(chunk);
        });
        res.on('end', () => resolveRes({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
    });
    req.flushHeaders();
    await once(req, 'continue');

    child.kill('SIGTERM');
    // Readiness says 503 while the process still finishes (SHUTDOWN_DELAY_S); bounded polling.
    let ready = 200;
    for (let i = 0; i < 500 && ready === 200; i++) ready = (await fetch(`${base}/readyz`)).status;
    expect(ready).toBe(503);

    req.end(body);
    const answer = await response;
    expect(answer.status, answer.text).toBe(201);
    const [code, signal] = await exited;
    expect({ code, signal, stderr: server.stderr() }).toEqual({ code: 0, signal: null, stderr: '' });
    expect(server.stdout()).toContain('"msg":"Shutting down"');
    expect(server.stdout()).toContain('"msg":"Stopped"');
  }, 90_000);
});
