import { describe, expect, it } from 'vitest';
import {
  alignPrevious,
  changeOf,
  itemsLink,
  paramsOfSaved,
  parseStatsParams,
  statsQueryOf,
  toCsv,
  withCompanyAccounts,
} from './model';

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
      company_id: [],
      tag_id: [],
      operator_id: [],
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
      company_id: undefined,
      tag_id: undefined,
      operator_id: undefined,
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

  it('company and tag filters: read from the address, sent to the API, kept by a saved filter', () => {
    const p = parseStatsParams(
      new URLSearchParams('preset=30d&company_id=4&company_id=x&tag_id=9&tag_id=9&compare=1'),
    );
    expect(p.company_id).toEqual([4]);
    expect(p.tag_id).toEqual([9]);
    const query = statsQueryOf(p, 2);
    expect(query).toMatchObject({ space_id: 2, preset: '30d', compare: 1, company_id: [4], tag_id: [9] });
    // A saved filter stores that query; applying it gives the same frame back.
    const stored = JSON.parse(JSON.stringify(query));
    expect(parseStatsParams(paramsOfSaved(stored))).toEqual({ ...p, space_id: 2 });
  });

  it('operator filter: read, sent, and passed to the drill-down as the list assigned_user_id', () => {
    const p = parseStatsParams(new URLSearchParams('operator_id=5&operator_id=x&operator_id=5'));
    expect(p.operator_id).toEqual([5]);
    expect(statsQueryOf(p, 1)).toMatchObject({ operator_id: [5] });
    const link = new URL(itemsLink(p, { start: 0, end: 10 }), 'http://x');
    expect(link.searchParams.getAll('assigned_user_id')).toEqual(['5']);
    // A row of one member (analytics by operator) narrows to that member.
    const one = new URL(itemsLink(p, { start: 0, end: 10 }, { operator_id: 7 }), 'http://x');
    expect(one.searchParams.getAll('assigned_user_id')).toEqual(['7']);
  });

  it('drill-down: a tag is passed as the list tag_id, a company as its accounts (within the account filter)', () => {
    const accounts = [
      { id: 1, company_id: 4 },
      { id: 2, company_id: 4 },
      { id: 3, company_id: 5 },
      { id: 6, company_id: null },
    ];
    const p = withCompanyAccounts(parseStatsParams(new URLSearchParams('company_id=4&tag_id=9')), accounts);
    const link = new URL(itemsLink(p, { start: 0, end: 10 }), 'http://x');
    expect(link.searchParams.getAll('object_id')).toEqual(['1', '2']);
    expect(link.searchParams.getAll('tag_id')).toEqual(['9']);
    const narrowed = withCompanyAccounts(
      parseStatsParams(new URLSearchParams('company_id=4&object_id=2&object_id=3')),
      accounts,
    );
    expect(narrowed.company_object_id).toEqual([2]);
    expect(
      withCompanyAccounts(parseStatsParams(new URLSearchParams('')), accounts).company_object_id,
    ).toBeNull();
  });

  it('change against the previous period: percent, direction, and whether up is good for the figure', () => {
    expect(changeOf(12, 10)).toEqual({ percent: 20, direction: 'up', good: true });
    expect(changeOf(5, 10)).toEqual({ percent: -50, direction: 'down', good: false });
    // Times: less is better.
    expect(changeOf(300, 600, false)).toEqual({ percent: -50, direction: 'down', good: true });
    expect(changeOf(900, 600, false)).toEqual({ percent: 50, direction: 'up', good: false });
    expect(changeOf(7, 7)).toEqual({ percent: 0, direction: 'flat', good: null });
    // Nothing before: up, but no percent.
    expect(changeOf(3, 0)).toEqual({ percent: null, direction: 'up', good: true });
    expect(changeOf(null, 5)).toEqual({ percent: null, direction: 'flat', good: null });
    expect(changeOf(1, 3).percent).toBe(-66.7);
  });

  it('the previous period aligns with this one by day offset, gaps as null', () => {
    const days = [{ day: '2026-11-10' }, { day: '2026-11-11' }, { day: '2026-11-13' }];
    const prev = [
      { day: '2026-11-06', v: 4 },
      { day: '2026-11-09', v: 8 },
    ];
    // This period from Nov 10, the previous from Nov 6: Nov 6 ↔ Nov 10, Nov 9 ↔ Nov 13.
    expect(alignPrevious(days, '2026-11-10', '2026-11-06', prev, (d) => d.v)).toEqual([4, null, 8]);
  });
});
