import { describe, expect, it } from 'vitest';
import { backTarget, countAppliedFilters, filterButtonCount } from './routing';

describe('applied filter count', () => {
  it('counts distinct filter parameters, not values, and skips paging, language and tabs', () => {
    expect(countAppliedFilters('?status=new&status=open&object_id=5&page=2&locale=en')).toBe(2);
    expect(countAppliedFilters('?tab=statuses&sort=created_at')).toBe(0);
    expect(countAppliedFilters('?provider=&object_id=3')).toBe(1);
    expect(countAppliedFilters('')).toBe(0);
  });

  it("counts only the screen's own filter keys when it names them", () => {
    expect(countAppliedFilters('?status=new&object_id=5&q=x', ['status', 'q'])).toBe(2);
  });

  it("the filter button takes the screen's own count when the screen gives one", () => {
    const count = (search: string) => (new URLSearchParams(search).get('status') === 'closed' ? 1 : 0);
    expect(filterButtonCount('?status=new&status=inprogress', { keys: ['status'], count })).toBe(0);
    expect(filterButtonCount('?status=closed', { count })).toBe(1);
    expect(filterButtonCount('?status=new&q=x', { keys: ['status', 'q'] })).toBe(2);
    expect(filterButtonCount('?object_id=1', null)).toBe(1);
  });
});

describe('back arrow', () => {
  it('leads from a detail page to its list', () => {
    expect(backTarget('item', '/items/42')).toBe('/items');
    expect(backTarget('chat-messages', '/chats/7/messages')).toBe('/chats');
    expect(backTarget('issue-page', '/issues/3')).toBe('/issues');
    expect(backTarget('settings-user', '/settings/users/5')).toBe('/settings/users');
    expect(backTarget('settings-users-new', '/settings/users/new')).toBe('/settings/users');
    expect(backTarget('settings-user-workinghours', '/settings/users/workinghours/7')).toBe(
      '/settings/users/workinghours',
    );
    expect(backTarget('qa-item', '/qa/items/9')).toBe('/qa');
    expect(backTarget('stats-user', '/stats/users/4')).toBe('/stats/users');
  });

  it('is absent on top-level pages, settings sections and statistics tabs', () => {
    expect(backTarget('items', '/items')).toBeNull();
    expect(backTarget('stats', '/')).toBeNull();
    expect(backTarget('settings-users', '/settings/users')).toBeNull();
    expect(backTarget('settings', '/settings')).toBeNull();
    expect(backTarget('stats-overall', '/stats/overall')).toBeNull();
    expect(backTarget('settings-users-workinghours-my', '/settings/users/workinghours/my')).toBeNull();
    expect(backTarget(undefined, '/x/y')).toBeNull();
  });
});
