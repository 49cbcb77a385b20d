import { pathFor, queryString, routeNames, routes } from '@otklik/shared/routes';
import { describe, expect, it } from 'vitest';
import { titlesEn } from '../i18n/titles.en';
import { titlesRu } from '../i18n/titles.ru';

describe('named routes', () => {
  it('fills params and serialises the query without indices', () => {
    expect(pathFor('issue-page', { id: 42 })).toBe('/issues/42');
    expect(pathFor('stats-user-workinghours', { id: 'a b' })).toBe('/stats/users/a%20b/workinghours');
    expect(pathFor('items', {}, { object_id: 5, status: ['new', 'inprogress'] })).toBe(
      '/items?object_id=5&status=new&status=inprogress',
    );
    expect(pathFor('settings-accounts-add')).toBe('/settings/accounts/add');
    expect(queryString({ a: undefined, b: '' })).toBe('');
  });

  it('has unique paths, auth flags by group, and a title in both languages for every route', () => {
    const paths = routeNames.map((name) => routes[name].path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const name of routeNames) {
      const route = routes[name];
      expect(route.auth).toBe(
        route.group === 'callback' || route.group === 'main' || route.group === 'settings',
      );
      expect(titlesRu[name]).toBeTruthy();
      expect(titlesEn[name]).toBeTruthy();
    }
    expect(routes.login.auth).toBe(false);
    expect(routes['callback-tiktok'].auth).toBe(false);
    expect(routes['callback-vk'].auth).toBe(true);
  });
});
