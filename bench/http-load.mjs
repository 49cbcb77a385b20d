// HTTP load generator for the benchmarks, run in a worker thread so the client's own work (building
// requests, reading responses) does not share the event loop of the server it measures.
// workerData: { base, headers, paths: string[], requests, concurrency, maxMs }; each request i GETs
// paths[i % paths.length]. Posts back { latencies: number[] (ms), errors, firstError, elapsedMs }.
import { parentPort, workerData } from 'node:worker_threads';
import { createClient } from './http-client.mjs';

const { base, headers, paths, requests, concurrency, maxMs } = workerData;
const latencies = [];
let errors = 0;
let firstError = null;
let next = 0;
const started = performance.now();
const client = createClient(concurrency);

async function worker() {
  while (next < requests && performance.now() - started < maxMs) {
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
  }
}

await Promise.all(Array.from({ length: concurrency }, worker));
client.close();
parentPort.postMessage({ latencies, errors, firstError, elapsedMs: performance.now() - started });
