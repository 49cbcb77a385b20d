import { describe, expect, it } from 'vitest';
import { hasRecordId, listPathAbove, parseRouteId } from './routeParams';

describe('route ids', () => {
  it('only a positive int4 names a record', () => {
    expect(parseRouteId('42')).toBe(42);
    expect(parseRouteId('2147483647')).toBe(2_147_483_647);
    for (const raw of [
      'abc',
      '',
      '0',
      '-1',
      '1.5',
      '1e3',
      '01',
      ' 1',
      '2147483648',
      '99999999999',
      undefined,
    ])
      expect(parseRouteId(raw), String(raw)).toBeNull();
  });

  it('the signed-in record routes are guarded; public hashes and tokens are not', () => {
    expect(hasRecordId('item')).toBe(true);
    expect(hasRecordId('chat-messages')).toBe(true);
    expect(hasRecordId('settings-tag-children')).toBe(true);
    expect(hasRecordId('stats-user')).toBe(true);
    expect(hasRecordId('items')).toBe(false);
    expect(hasRecordId('sandbox')).toBe(false);
    expect(hasRecordId('delete-request')).toBe(false);
    expect(hasRecordId('signup-invitation')).toBe(false);
  });

  it('"back" from a missing record is the list above its id', () => {
    expect(listPathAbove('/items/abc', 'abc')).toBe('/items');
    expect(listPathAbove('/chats/abc/messages', 'abc')).toBe('/chats');
    expect(listPathAbove('/settings/accounts/abc/exclude', 'abc')).toBe('/settings/accounts');
    expect(listPathAbove('/settings/users/workinghours/7', '7')).toBe('/settings/users/workinghours');
    expect(listPathAbove('/author/5', '5')).toBe('/');
  });
});
