import { describe, expect, it } from 'vitest';
import { itemsLink, parseStatsParams, statsQueryOf, toCsv } from './model';

describe('stats frame model', () => {
  it('reads the address: a custom range wins over a preset, bad values are dropped', () => {
    const p = parseStatsParams(
      new URLSearchParams(
        'space_id=3&preset=30d&from=2026-11-01&to=2026-11-07&kind=chat&kind=x&provider=vk&object_id=-1&compare=1',
      ),
    );
    expect(p).toEqual({
      space_id: 3,
      preset: 'custom',
      from: '2026-11-01',
      to: '2026-11-07',
      compare: true,
      provider: ['vk'],
      object_id: [],
      kind: ['chat'],
    });
    expect(parseStatsParams(new URLSearchParams('from=2026-11-07&to=2026-11-01')).preset).toBe('7d');
    expect(statsQueryOf(parseStatsParams(new URLSearchParams('preset=today')), 5)).toEqual({
      space_id: 5,
      preset: 'today',
      from: undefined,
      to: undefined,
      compare: undefined,
      provider: undefined,
      object_id: undefined,
      kind: undefined,
    });
  });

  it('drill-down: [start, end) becomes the list bounds inclusive to the second, every status, the item kinds', () => {
    const p = parseStatsParams(new URLSearchParams('kind=review&kind=chat&object_id=7'));
    const link = new URL(itemsLink(p, { start: 1000, end: 2000 }), 'http://x');
    expect(link.pathname).toBe('/items');
    expect(link.searchParams.get('created_at_from')).toBe('1000');
    expect(link.searchParams.get('created_at_to')).toBe('1999');
    expect(link.searchParams.getAll('status')).toHaveLength(7);
    expect(link.searchParams.getAll('kind')).toEqual(['review']);
    expect(link.searchParams.getAll('object_id')).toEqual(['7']);
  });

  it('CSV: quoted when needed, BOM, CRLF', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          [1, null],
        ],
      ),
    ).toBe('\ufeffa,b\r\n"x,y","say ""hi"""\r\n1,\r\n');
  });

  it('CSV: text that a spreadsheet would run as a formula is guarded; numbers stay numbers', () => {
    expect(toCsv(['a'], [['=SUM(A1)'], ['+7'], ['@x'], [-5], ['-1']])).toBe(
      "\ufeffa\r\n'=SUM(A1)\r\n'+7\r\n'@x\r\n-5\r\n'-1\r\n",
    );
  });
});
