import { describe, expect, it } from 'vitest';
import { filterButtonCount } from '../../../shell/routing';
import {
  APPLIED_FILTER_COUNTERS,
  countAppliedFilters,
  countAppliedInSearch,
  dayToSeconds,
  filtersFromSaved,
  filtersToApiQuery,
  filtersToQuery,
  filtersToSearch,
  parseFilters,
  rowMatches,
  savedQueryOf,
  secondsToDay,
  withSearchText,
} from './filters';

describe('inbox filters ↔ address ↔ API', () => {
  it('defaults the status filter: new + inprogress for comments, chats add open (docs/product/limits.md)', () => {
    expect(parseFilters('', 'items').status).toEqual(['new', 'inprogress']);
    expect(parseFilters('', 'chats').status).toEqual(['new', 'inprogress', 'open']);
    expect(countAppliedFilters(parseFilters('', 'items'), 'items')).toBe(0);
  });

  it('reads every filter and drops malformed values', () => {
    const filters = parseFilters(
      'status=closed&status=bogus&provider=vk&provider=nope&object_id=5&object_id=x&tag_id=3&assigned_user_id=none&assigned_user_id=7&created_at_from=100&created_at_to=-1&q=+hello+&kind=review&sentiment=anger&sentiment=sad&locale=en',
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
      close_reason: [],
      q: 'hello',
      source: [],
      sentiment: ['anger'],
    });
    expect(countAppliedFilters(filters, 'items')).toBe(9);
  });

  it('chats have no kind filter and no deleted status, but an emotion filter (their customer’s latest message)', () => {
    const filters = parseFilters('kind=review&status=deleted&sentiment=negative&sentiment=sad', 'chats');
    expect(filters.kind).toEqual([]);
    expect(filters.sentiment).toEqual(['negative']);
    expect(filtersToQuery(filters, 'chats').sentiment).toEqual(['negative']);
    const row = { status: 'new' as const, object_id: 1, tags: [], assigned_user_id: null, created_at: 1 };
    expect(rowMatches(filters, { ...row, sentiment: 'negative' }, 'chats')).toBe(true);
    expect(rowMatches(filters, { ...row, sentiment: 'positive' }, 'chats')).toBe(false);
    expect(filters.status).toEqual(['new', 'inprogress', 'open']);
  });

  it('comments can be filtered by open, which the API lets a comment be set to', () => {
    expect(parseFilters('status=open', 'items').status).toEqual(['open']);
  });

  it('writes the address without the default status and keeps other parameters', () => {
    const filters = withSearchText({ ...parseFilters('', 'items'), object_id: [2, 3] }, 'items', 'доставка');
    const search = filtersToSearch(filters, 'items', new URLSearchParams('locale=en&status=closed'));
    expect(search.toString()).toBe(
      'locale=en&object_id=2&object_id=3&q=%D0%B4%D0%BE%D1%81%D1%82%D0%B0%D0%B2%D0%BA%D0%B0',
    );
    expect(parseFilters(search, 'items')).toEqual(filters);
  });

  it('a text search covers every status unless statuses were chosen; the queue comes back without it', () => {
    const all = ['new', 'inprogress', 'open', 'waiting', 'delayed', 'closed', 'deleted'];
    expect(parseFilters('q=refund', 'items').status).toEqual(all);
    expect(parseFilters('q=refund', 'chats').status).toEqual(all.filter((s) => s !== 'deleted'));
    expect(filtersToApiQuery(parseFilters('q=refund', 'items'), 'items').status).toEqual(all);
    // Chosen statuses stay chosen, with or without a text.
    expect(parseFilters('q=refund&status=closed', 'items').status).toEqual(['closed']);
    const chosen = withSearchText(parseFilters('status=closed', 'items'), 'items', 'refund');
    expect(chosen.status).toEqual(['closed']);
    // Typing a search into default filters widens them; clearing it returns to the queue.
    const searching = withSearchText(parseFilters('', 'items'), 'items', 'refund');
    expect(searching.status).toEqual(all);
    expect(filtersToSearch(searching, 'items').toString()).toBe('q=refund');
    expect(countAppliedFilters(searching, 'items')).toBe(1);
    expect(withSearchText(searching, 'items', '').status).toEqual(['new', 'inprogress']);
  });

  it('always sends an explicit status list to the API', () => {
    const query = filtersToApiQuery(parseFilters('provider=sandbox', 'chats'), 'chats', true);
    expect(query).toMatchObject({
      status: ['new', 'inprogress', 'open'],
      provider: ['sandbox'],
      reversed: 1,
    });
  });

  it('round-trips saved filters (docs/product/entities.md Saved filter query)', () => {
    const filters = parseFilters('status=closed&provider=vk&created_at_from=10', 'items');
    const saved = savedQueryOf(filters, 'items');
    expect(saved).toEqual({ status: ['closed'], provider: ['vk'], created_at_from: 10 });
    expect(filtersFromSaved(JSON.parse(JSON.stringify(saved)), 'items')).toEqual(filters);
  });

  it('keeps the saved-query key `source` (docs/product/screens-and-routes.md, account ids) through the address and back, and filters by it', () => {
    const filters = filtersFromSaved({ status: ['new'], source: [7, 'bad'], provider: 'vk' }, 'chats');
    expect(filters.source).toEqual([7]);
    expect(savedQueryOf(filters, 'chats')).toEqual({
      status: ['new'],
      provider: ['vk'],
      source: [7],
    });
    const search = filtersToSearch(filters, 'chats');
    expect(search.getAll('source')).toEqual(['7']);
    expect(parseFilters(search, 'chats')).toEqual(filters);
    expect(filtersToApiQuery(filters, 'chats').source).toEqual([7]);
    const row = {
      status: 'new' as const,
      object_id: 7,
      tags: [],
      assigned_user_id: null,
      created_at: 0,
      provider: 'vk',
    };
    expect(rowMatches(filters, row, 'chats')).toBe(true);
    expect(rowMatches(filters, { ...row, object_id: 8 }, 'chats')).toBe(false);
  });

  it('round-trips close_reason through the address, only while closed rows are asked for', () => {
    const filters = {
      ...parseFilters('', 'items'),
      status: ['closed' as const, 'new' as const],
      close_reason: ['noreply' as const, 'autorule' as const],
    };
    const search = filtersToSearch(filters, 'items');
    expect(search.toString()).toBe('status=closed&status=new&close_reason=noreply&close_reason=autorule');
    expect(parseFilters(search, 'items')).toEqual(filters);
    expect(filtersToApiQuery(filters, 'items').close_reason).toEqual(['noreply', 'autorule']);
    expect(countAppliedFilters(filters, 'items')).toBe(2);
    // Saved and restored like the other filters.
    expect(filtersFromSaved(JSON.parse(JSON.stringify(savedQueryOf(filters, 'items'))), 'items')).toEqual(
      filters,
    );
    // Unknown reasons are dropped; without 'closed' a reason means nothing and is not a filter.
    expect(parseFilters('status=closed&close_reason=bogus', 'items').close_reason).toEqual([]);
    expect(parseFilters('close_reason=reply', 'items').close_reason).toEqual([]);
    expect(countAppliedInSearch('close_reason=reply', 'items')).toBe(0);
    const withoutClosed = { ...filters, status: ['new' as const] };
    expect(filtersToSearch(withoutClosed, 'items').has('close_reason')).toBe(false);
  });

  it('the filter button counts what the list counts (one parse of the address)', () => {
    const cases: Array<[string, 'items' | 'chats', number]> = [
      ['', 'items', 0],
      // The default statuses, spelled out, are no filter.
      ['status=new&status=inprogress', 'items', 0],
      ['status=inprogress&status=new&status=open', 'chats', 0],
      // Malformed and unknown values are dropped by the list, so they are no filter either.
      ['object_id=abc', 'items', 0],
      ['status=bogus', 'items', 0],
      ['tag_id=0&assigned_user_id=x&created_at_from=-5&provider=nope', 'chats', 0],
      ['kind=review', 'chats', 0],
      ['page=2&locale=en', 'items', 0],
      ['status=closed&close_reason=reply&object_id=3&object_id=4', 'items', 3],
      ['status=closed&status=bogus&q=%20%20', 'items', 1],
    ];
    for (const [search, kind, expected] of cases) {
      const list = countAppliedFilters(parseFilters(search, kind), kind);
      const button = filterButtonCount(search, { count: APPLIED_FILTER_COUNTERS[kind] });
      expect({ search, kind, list, button }).toEqual({ search, kind, list: expected, button: expected });
    }
  });

  it('a live closed row must have been closed the chosen way; other statuses are not narrowed', () => {
    const row = {
      status: 'closed' as const,
      close_reason: 'reply' as const,
      object_id: 1,
      tags: [],
      assigned_user_id: null,
      created_at: 1000,
    };
    const filters = parseFilters('status=closed&close_reason=noreply', 'items');
    expect(rowMatches(filters, row, 'items')).toBe(false);
    expect(rowMatches(filters, { ...row, close_reason: 'noreply' }, 'items')).toBe(true);
    expect(rowMatches(parseFilters('status=closed', 'items'), row, 'items')).toBe(true);
    const both = parseFilters('status=new&status=closed&close_reason=noreply', 'items');
    expect(rowMatches(both, { ...row, status: 'new', close_reason: null }, 'items')).toBe(true);
    expect(rowMatches(both, row, 'items')).toBe(false);
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
