// Emotions classifier benchmark (`npm run bench -- emotions`, issue 21): texts classified per second on
// this CPU, over the labelled sets (ru + en, short comments) and over long texts (2,000 characters),
// with and without a space's override words. The pipeline needs ≥ 2,000 texts/s on one core. The rate is
// counted per second of this process's CPU time (process.cpuUsage), which a busy shared machine does not
// distort; the wall-clock rate is printed beside it.
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { classify, overridesOf } from '../apps/server/src/modules/emotions/classifier';
import { loadLabelled } from '../apps/server/src/modules/emotions/dataset';

const TARGET = 2_000;
const texts = [...loadLabelled('ru'), ...loadLabelled('en')].map((r) => r.text);
const long = texts.map((_, i) =>
  texts
    .slice(i, i + 40)
    .join(' ')
    .slice(0, 2_000),
);
const own = overridesOf(
  Array.from({ length: 200 }, (_, i) => ({ word: `слово${i}`, sentiment: i % 2 ? 'positive' : 'negative' })),
);

function rate(list: string[], rounds: number, overrides?: ReturnType<typeof overridesOf>) {
  for (const t of list.slice(0, 200)) classify(t, overrides); // warm-up
  const started = performance.now();
  const cpu = process.cpuUsage();
  let n = 0;
  for (let r = 0; r < rounds; r++)
    for (const t of list) {
      classify(t, overrides);
      n += 1;
    }
  const used = process.cpuUsage(cpu);
  return {
    cpu: n / ((used.user + used.system) / 1e6),
    wall: n / ((performance.now() - started) / 1000),
  };
}

console.log(`CPU: ${cpus()[0]?.model ?? '?'} × ${cpus().length}, load ${loadavg()[0]?.toFixed(2)}`);
const rows = [
  ['labelled texts (avg ~55 chars)', rate(texts, 40)],
  ['labelled texts + 200 override words', rate(texts, 40, own)],
  ['long texts (2,000 chars)', rate(long, 4)],
] as const;
let ok = true;
const fmt = (n: number) => Math.round(n).toLocaleString('en').padStart(10);
for (const [name, perSecond] of rows) {
  const pass = perSecond.cpu >= TARGET;
  ok &&= pass;
  console.log(
    `${name.padEnd(40)} ${fmt(perSecond.cpu)} texts/CPU-s (wall ${fmt(perSecond.wall)}/s)  ${pass ? 'PASS' : 'MISS'} (≥ ${TARGET})`,
  );
}
process.exit(ok ? 0 : 1);
