import { describe, expect, it } from 'vitest';
import { type ListPage, mergeLiveRows, mergeMessages, replaceRows } from './liveList';

type Row = { id: number; at: number; status: string };
const row = (id: number, at: number, status = 'new'): Row => ({ id, at, status });
const options = { matches: (r: Row) => r.status === 'new', sortKey: (r: Row) => r.at };
const ids = (pages: ListPage<Row>[]) => pages.map((page) => page.items.map((r) => r.id));

describe('live rows in an open list', () => {
  const pages: ListPage<Row>[] = [
    { items: [row(5, 50), row(4, 40)], next: 'c1' },
    { items: [row(3, 30), row(2, 20)], next: 'c2' },
  ];

  it('puts a new matching row on top without a reload', () => {
    expect(ids(mergeLiveRows(pages, [row(6, 60)], options))).toEqual([
      [6, 5, 4],
      [3, 2],
    ]);
  });

  it('ignores rows that do not match the filters', () => {
    expect(mergeLiveRows(pages, [row(6, 60, 'closed')], options)).toBe(pages);
  });

  it('replaces a shown row in place, even when it no longer matches', () => {
    const merged = mergeLiveRows(pages, [row(3, 30, 'closed')], options);
    expect(ids(merged)).toEqual(ids(pages));
    expect(merged[1]!.items[0]!.status).toBe('closed');
  });

  it('moves a row whose sort key changed (a chat with a new message goes to the top)', () => {
    expect(ids(mergeLiveRows(pages, [row(2, 70)], options))).toEqual([[2, 5, 4], [3]]);
  });

  it('leaves an older row to paging when more pages are left, adds it when the list is complete', () => {
    expect(mergeLiveRows(pages, [row(1, 10)], options)).toBe(pages);
    const complete = [pages[0]!, { ...pages[1]!, next: null }];
    expect(ids(mergeLiveRows(complete, [row(1, 10)], options))).toEqual([
      [5, 4],
      [3, 2, 1],
    ]);
  });

  it('keeps the order oldest first for reversed lists', () => {
    const reversed = [{ items: [row(1, 10), row(2, 20)], next: null }];
    expect(ids(mergeLiveRows(reversed, [row(3, 30)], { ...options, reversed: true }))).toEqual([[1, 2, 3]]);
  });

  it('replaces rows by id only', () => {
    expect(replaceRows(pages, [row(9, 90)])).toBe(pages);
    expect(replaceRows(pages, [row(4, 40, 'closed')])[0]!.items[1]!.status).toBe('closed');
  });
});

describe('messages of an open chat', () => {
  type Message = { id: number; created_at: number; text: string };
  const pages: ListPage<Message>[] = [
    {
      items: [
        { id: 3, created_at: 30, text: 'c' },
        { id: 4, created_at: 40, text: 'd' },
      ],
      next: 'older',
    },
    { items: [{ id: 1, created_at: 10, text: 'a' }], next: null },
  ];

  it('appends new messages to the newest page and replaces known ones', () => {
    const merged = mergeMessages(pages, [
      { id: 5, created_at: 50, text: 'e' },
      { id: 4, created_at: 40, text: 'd2' },
      { id: 5, created_at: 50, text: 'e' },
    ]);
    expect(merged[0]!.items.map((m) => `${m.id}${m.text}`)).toEqual(['3c', '4d2', '5e']);
    expect(merged[1]).toBe(pages[1]);
  });
});
