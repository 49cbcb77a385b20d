import { describe, expect, it } from 'vitest';
import { qaCriterionShare, qaTotal, qaValueValid } from './qa';
import type { QaScore } from './qa-wire';

const score = (kind: 'yesno' | 'scale', weight: number, value: number, critical = false): QaScore => ({
  id: `${kind}-${weight}-${value}`,
  name: 'c',
  kind,
  weight,
  critical,
  value,
});

describe('qa scoring (docs/product/qa.md)', () => {
  it('shares: yes/no as is, 1–5 as (v − 1) / 4', () => {
    expect([0, 1].map((v) => qaCriterionShare('yesno', v))).toEqual([0, 1]);
    expect([1, 2, 3, 4, 5].map((v) => qaCriterionShare('scale', v))).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });

  it('the total is the weighted mean in percent with one decimal', () => {
    expect(qaTotal([score('yesno', 1, 1), score('scale', 1, 4)])).toEqual({
      total: 87.5,
      criticalFailed: false,
    });
    expect(qaTotal([score('yesno', 1, 0), score('scale', 2, 3)]).total).toBe(33.3);
    expect(qaTotal([score('yesno', 3, 1), score('scale', 1, 1)]).total).toBe(75);
  });

  it('a critical "no" or 1 makes the total 0; a critical pass counts normally', () => {
    expect(qaTotal([score('yesno', 1, 0, true), score('scale', 5, 5)])).toEqual({
      total: 0,
      criticalFailed: true,
    });
    expect(qaTotal([score('scale', 1, 1, true), score('yesno', 5, 1)])).toEqual({
      total: 0,
      criticalFailed: true,
    });
    expect(qaTotal([score('scale', 1, 2, true), score('yesno', 1, 1)])).toEqual({
      total: 62.5,
      criticalFailed: false,
    });
  });

  it('values outside the scale are invalid', () => {
    expect(qaValueValid('yesno', 2)).toBe(false);
    expect(qaValueValid('scale', 0)).toBe(false);
    expect(qaValueValid('scale', 6)).toBe(false);
    expect(qaValueValid('scale', 2.5)).toBe(false);
    expect(qaValueValid('scale', 5)).toBe(true);
  });
});
