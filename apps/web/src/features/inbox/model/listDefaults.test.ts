import { describe, expect, it } from 'vitest';
import { parseFilters } from './filters';
import { defaultListSearch, hasFilters } from './listDefaults';

// Issue 13 #16: "my settings" defaults become the filters a list opens with.

const ctx = {
  accounts: [
    { id: 1, company_id: 7 },
    { id: 2, company_id: 7 },
    { id: 3, company_id: null },
  ],
  myId: 42,
};

describe('list defaults from my settings', () => {
  it('no defaults: the list opens as before', () => {
    expect(defaultListSearch({}, 'items', ctx)).toBeNull();
    expect(defaultListSearch({ reversed: true, wh_status_notification: 60 }, 'items', ctx)).toBeNull();
  });

  it('account, network, tag and hide_other become filters', () => {
    const search = defaultListSearch(
      { object_id: 3, provider: 'vk', tag_id: 5, hide_other: true },
      'items',
      ctx,
    )!;
    expect(parseFilters(search, 'items')).toMatchObject({
      object_id: [3],
      provider: ['vk'],
      tag_id: [5],
      assigned_user_id: [42, 'none'],
      status: ['new', 'inprogress'],
    });
  });

  it('a company means its accounts; the account wins over the company; an empty company is left out', () => {
    expect(parseFilters(defaultListSearch({ company_id: 7 }, 'chats', ctx)!, 'chats').object_id).toEqual([
      1, 2,
    ]);
    expect(
      parseFilters(defaultListSearch({ company_id: 7, object_id: 3 }, 'chats', ctx)!, 'chats').object_id,
    ).toEqual([3]);
    expect(defaultListSearch({ company_id: 99 }, 'chats', ctx)).toBeNull();
  });

  it('an unknown network or malformed settings are ignored', () => {
    expect(defaultListSearch({ provider: 'myspace' }, 'items', ctx)).toBeNull();
    expect(defaultListSearch({ tag_id: 'x' }, 'items', ctx)).toBeNull();
  });

  it('an address that already filters keeps its own filters', () => {
    expect(hasFilters(new URLSearchParams('status=closed'), 'items')).toBe(true);
    expect(hasFilters(new URLSearchParams('locale=en'), 'items')).toBe(false);
  });
});
