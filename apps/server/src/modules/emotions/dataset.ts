import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { classify, type Sentiment } from './classifier';

// The labelled sets (apps/server/test/fixtures/emotions/<lang>.txt) and the figures the README quotes:
// accuracy and macro-F1 over negative / neutral / positive, and anger's precision and recall.

export interface Labelled {
  text: string;
  sentiment: Sentiment;
  anger: boolean;
}

const MARKS: Record<string, { sentiment: Sentiment; anger: boolean }> = {
  '+': { sentiment: 'positive', anger: false },
  '=': { sentiment: 'neutral', anger: false },
  '-': { sentiment: 'negative', anger: false },
  '!': { sentiment: 'negative', anger: true },
};

export function loadLabelled(language: 'ru' | 'en'): Labelled[] {
  const path = fileURLToPath(new URL(`../../../test/fixtures/emotions/${language}.txt`, import.meta.url));
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((line) => {
      const mark = MARKS[line.slice(0, 1)];
      return mark && line[1] === ' ' ? [{ text: line.slice(2).trim(), ...mark }] : [];
    });
}

export interface Scores {
  n: number;
  accuracy: number;
  macroF1: number;
  perClass: Record<Sentiment, { precision: number; recall: number; f1: number }>;
  anger: { precision: number; recall: number };
  misses: Array<{ text: string; expected: Sentiment; got: Sentiment }>;
}

const SENTIMENTS: Sentiment[] = ['negative', 'neutral', 'positive'];
const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);

export function evaluate(set: Labelled[]): Scores {
  let right = 0;
  let angerHit = 0;
  let angerSaid = 0;
  let angerTrue = 0;
  const misses: Scores['misses'] = [];
  const counts = Object.fromEntries(SENTIMENTS.map((s) => [s, { tp: 0, said: 0, real: 0 }])) as Record<
    Sentiment,
    { tp: number; said: number; real: number }
  >;
  for (const row of set) {
    const got = classify(row.text);
    counts[got.sentiment].said += 1;
    counts[row.sentiment].real += 1;
    if (got.sentiment === row.sentiment) {
      right += 1;
      counts[got.sentiment].tp += 1;
    } else misses.push({ text: row.text, expected: row.sentiment, got: got.sentiment });
    if (got.emotion === 'anger') angerSaid += 1;
    if (row.anger) angerTrue += 1;
    if (row.anger && got.emotion === 'anger') angerHit += 1;
  }
  const perClass = Object.fromEntries(
    SENTIMENTS.map((s) => {
      const c = counts[s];
      const precision = ratio(c.tp, c.said);
      const recall = ratio(c.tp, c.real);
      return [s, { precision, recall, f1: ratio(2 * precision * recall, precision + recall) }];
    }),
  ) as Scores['perClass'];
  return {
    n: set.length,
    accuracy: ratio(right, set.length),
    macroF1: SENTIMENTS.reduce((sum, s) => sum + perClass[s].f1, 0) / SENTIMENTS.length,
    perClass,
    anger: { precision: ratio(angerHit, angerSaid), recall: ratio(angerHit, angerTrue) },
    misses,
  };
}
