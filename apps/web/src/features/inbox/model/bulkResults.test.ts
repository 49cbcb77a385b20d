import { describe, expect, it } from 'vitest';
import { failureReasons, isCleanBulk, summarizeBulk } from './bulkResults';

describe('bulk action summaries', () => {
  it('names what was done first, then only the kinds that happened', () => {
    const results = [
      { id: 1, result: 'ok' as const },
      { id: 2, result: 'ok' as const },
      { id: 3, result: 'no_access' as const },
      { id: 4, result: 'not_found' as const },
      { id: 5, result: 'failed' as const, error: 'Некорректное значение' },
      { id: 6, result: 'failed' as const, error: 'Некорректное значение' },
    ];
    expect(summarizeBulk(results, 'done.close')).toEqual([
      { key: 'done.close', count: 2 },
      { key: 'noAccess', count: 1 },
      { key: 'notFound', count: 1 },
      { key: 'failed', count: 2 },
    ]);
    expect(failureReasons(results)).toEqual(['Некорректное значение']);
    expect(isCleanBulk(results)).toBe(false);
  });

  it('undo reports what changed since; zero done still says zero', () => {
    const results = [{ id: 1, result: 'changed' as const }];
    expect(summarizeBulk(results, 'undone')).toEqual([
      { key: 'undone', count: 0 },
      { key: 'changed', count: 1 },
    ]);
    expect(isCleanBulk([{ id: 1, result: 'unchanged' }])).toBe(true);
  });
});
