// HTTP load generator for the benchmarks, run in a worker thread so the client's own work (building
// requests, reading responses) does not share the event loop of the server it measures.
// workerData: { base, headers, paths: string[], requests, concurrency, maxMs, pauseMs? }; each request i GETs
// paths[i % paths.length]. Posts back { latencies: number[] (ms), errors, firstError, elapsedMs }.
// With pauseMs each caller waits that long after an answer before asking again (a person, not a flood).
// A 'stop' message from the parent ends the run early (the callers finish their request in flight):
// background load beside another phase runs in one worker for as long as that phase does.
import { parentPort, workerData } from 'node:worker_threads';
import { createClient } from './http-client.mjs';

const { base, headers, paths, requests, concurrency, maxMs, pauseMs = 0 } = workerData;
const latencies = [];
let errors = 0;
let firstError = null;
let next = 0;
const started = performance.now();
const client = createClient(concurrency);
let stopped = false;
parentPort.on('message', (message) => {
  if (message === 'stop') stopped = true;
});

async function worker() {
  while (!stopped && next < requests && performance.now() - started < maxMs) {
    const path = paths[next++ % paths.length];
    const sent = performance.now();
    try {
      const status = await client.send(base + path, { headers });
      if (status < 200 || status >= 300) {
        errors += 1;
        firstError ??= `${status} ${path}`;
      }
    } catch (error) {
      errors += 1;
      firstError ??= `${error instanceof Error ? error.message : String(error)} ${path}`;
    }
    latencies.push(performance.now() - sent);
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

await Promise.all(Array.from({ length: concurrency }, worker));
client.close();
parentPort.removeAllListeners('message');
parentPort.postMessage({ latencies, errors, firstError, elapsedMs: performance.now() - started });
