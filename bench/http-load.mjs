// HTTP load generator for the benchmarks, run in a worker thread so the client's own work (building
// requests, reading responses) does not share the event loop of the server it measures.
// workerData: { base, headers, paths: string[], requests, concurrency, maxMs }; each request i GETs
// paths[i % paths.length]. Posts back { latencies: number[] (ms), errors, firstError, elapsedMs }.
import { parentPort, workerData } from 'node:worker_threads';

const { base, headers, paths, requests, concurrency, maxMs } = workerData;
const latencies = [];
let errors = 0;
let firstError = null;
let next = 0;
const started = performance.now();

async function worker() {
  while (next < requests && performance.now() - started < maxMs) {
    const path = paths[next++ % paths.length];
    const sent = performance.now();
    try {
      const res = await fetch(base + path, { headers });
      await res.arrayBuffer();
      if (!res.ok) {
        errors += 1;
        firstError ??= `${res.status} ${path}`;
      }
    } catch (error) {
      errors += 1;
      firstError ??= `${error instanceof Error ? error.message : String(error)} ${path}`;
    }
    latencies.push(performance.now() - sent);
  }
}

await Promise.all(Array.from({ length: concurrency }, worker));
parentPort.postMessage({ latencies, errors, firstError, elapsedMs: performance.now() - started });
