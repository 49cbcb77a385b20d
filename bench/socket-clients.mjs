// Socket clients for bench/sockets.bench.ts, run in a worker thread so that reading 2,000 sockets does not
// share the event loop of the server being measured. workerData: { url, clients: [{ token, spaceId }] }.
// Messages from the parent: 'connect' (opens every socket, 50 at a time, answers { ready }), 'count'
// (answers { received }), 'finish' (answers the receipts and closes every socket). Sockets the server
// closed before the finish are counted.
// A receipt is the pushed event's key (its first row's id), the time it arrived (ms on the shared
// clock: performance.timeOrigin + now) and its size; a push for another space is counted as a leak.
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, clients } = workerData;
const now = () => performance.timeOrigin + performance.now();
const sockets = [];
let keys = [];
let times = [];
let bytes = 0;
let received = 0;
let leaks = 0;
let other = 0;

let failed = 0;
let closed = 0;
let finishing = false;

/** Opens one client's socket; a refused or timed-out handshake is tried again, three times at most. */
async function openWithRetry(client) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await open(client);
    } catch {
      if (attempt === 3) {
        failed += 1;
        return null;
      }
    }
  }
}

function open({ token, spaceId }) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url}?access_token=${token}`);
    const own = `"space_id":${spaceId},`;
    ws.on('message', (data) => {
      const at = now();
      const text = String(data);
      if (!text.startsWith('{"type":"items.created"')) {
        if (text.startsWith('{"type":"hello"')) resolve(ws);
        else other += 1;
        return;
      }
      // Only the head is read: the key and the space, not the whole row.
      const head = text.slice(0, 200);
      if (!head.includes(own)) leaks += 1;
      const key = /"items":\[\{"id":(\d+)/.exec(head);
      received += 1;
      bytes += Buffer.byteLength(text);
      keys.push(key ? Number(key[1]) : -1);
      times.push(at);
    });
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('open', () => sockets.push(ws));
    ws.once('close', () => {
      if (!finishing) closed += 1;
    });
  });
}

parentPort.on('message', async (message) => {
  if (message === 'connect') {
    for (let i = 0; i < clients.length; i += 50)
      await Promise.all(clients.slice(i, i + 50).map(openWithRetry));
    parentPort.postMessage({ ready: sockets.length, failed });
  } else if (message === 'count') {
    parentPort.postMessage({ received });
  } else if (message === 'finish') {
    const k = Float64Array.from(keys);
    const t = Float64Array.from(times);
    finishing = true;
    parentPort.postMessage({ keys: k, times: t, bytes, received, leaks, other, closed }, [
      k.buffer,
      t.buffer,
    ]);
    keys = [];
    times = [];
    for (const ws of sockets) ws.close();
  }
});
