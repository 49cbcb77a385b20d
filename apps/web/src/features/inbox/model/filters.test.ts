import { describe, expect, it } from 'vitest';
import {
  countAppliedFilters,
  dayToSeconds,
  filtersFromSaved,
  filtersToApiQuery,
  filtersToSearch,
  parseFilters,
  rowMatches,
  savedQueryOf,
  secondsToDay,
} from './filters';

describe('inbox filters ↔ address ↔ API', () => {
  it('defaults the status filter: new + inprogress for comments, chats add open (SPEC §9)', () => {
    expect(parseFilters('', 'items').status).toEqual(['new', 'inprogress']);
    expect(parseFilters('', 'chats').status).toEqual(['new', 'inprogress', 'open']);
    expect(countAppliedFilters(parseFilters('', 'items'), 'items')).toBe(0);
  });

  it('reads every filter and drops malformed values', () => {
    const filters = parseFilters(
      'status=closed&status=bogus&provider=vk&provider=nope&object_id=5&object_id=x&tag_id=3&assigned_user_id=none&assigned_user_id=7&created_at_from=100&created_at_to=-1&q=+hello+&kind=review&locale=en',
      'items',
    );
    expect(filters).toEqual({
      status: ['closed'],
      kind: ['review'],
      provider: ['vk'],
      object_id: [5],
      tag_id: [3],
      assigned_user_id: ['none', 7],
      author_id: null,
      created_at_from: 100,
      created_at_to: null,
      q: 'hello',
    });
    expect(countAppliedFilters(filters, 'items')).toBe(8);
  });

  it('chats have no kind filter and no deleted status', () => {
    const filters = parseFilters('kind=review&status=deleted', 'chats');
    expect(filters.kind).toEqual([]);
    expect(filters.status).toEqual(['new', 'inprogress', 'open']);
  });

  it('writes the address without the default status and keeps other parameters', () => {
    const filters = { ...parseFilters('', 'items'), object_id: [2, 3], q: 'доставка' };
    const search = filtersToSearch(filters, 'items', new URLSearchParams('locale=en&status=closed'));
    expect(search.toString()).toBe(
      'locale=en&object_id=2&object_id=3&q=%D0%B4%D0%BE%D1%81%D1%82%D0%B0%D0%B2%D0%BA%D0%B0',
    );
    expect(parseFilters(search, 'items')).toEqual(filters);
  });

  it('always sends an explicit status list to the API', () => {
    const query = filtersToApiQuery(parseFilters('provider=sandbox', 'chats'), 'chats', true);
    expect(query).toMatchObject({
      status: ['new', 'inprogress', 'open'],
      provider: ['sandbox'],
      reversed: 1,
    });
  });

  it('round-trips saved filters (SPEC §3 Saved filter query)', () => {
    const filters = parseFilters('status=closed&provider=vk&created_at_from=10', 'items');
    const saved = savedQueryOf(filters, 'items');
    expect(saved).toEqual({ status: ['closed'], provider: ['vk'], created_at_from: 10 });
    expect(filtersFromSaved(JSON.parse(JSON.stringify(saved)), 'items')).toEqual(filters);
  });

  it('decides whether a live row belongs in the list', () => {
    const row = {
      status: 'new' as const,
      object_id: 1,
      provider: 'sandbox',
      kind: 'comment' as const,
      tags: [4],
      assigned_user_id: null,
      created_at: 1000,
      author: { id: 9 },
    };
    const base = parseFilters('', 'items');
    expect(rowMatches(base, row, 'items')).toBe(true);
    expect(rowMatches({ ...base, status: ['closed'] }, row, 'items')).toBe(false);
    expect(rowMatches({ ...base, object_id: [2] }, row, 'items')).toBe(false);
    expect(rowMatches({ ...base, tag_id: [4, 5] }, row, 'items')).toBe(true);
    expect(rowMatches({ ...base, assigned_user_id: ['none'] }, row, 'items')).toBe(true);
    expect(rowMatches({ ...base, assigned_user_id: [3] }, row, 'items')).toBe(false);
    expect(rowMatches({ ...base, kind: ['review'] }, row, 'items')).toBe(false);
    expect(rowMatches({ ...base, created_at_to: 999 }, row, 'items')).toBe(false);
    expect(rowMatches({ ...base, q: 'x' }, row, 'items')).toBe('unknown');
  });

  it('turns days into the start and end of the local day', () => {
    const from = dayToSeconds('2026-03-05', 'start')!;
    const to = dayToSeconds('2026-03-05', 'end')!;
    expect(to - from).toBe(86_399);
    expect(secondsToDay(from)).toBe('2026-03-05');
    expect(dayToSeconds('5.3.2026', 'start')).toBeNull();
  });
});
