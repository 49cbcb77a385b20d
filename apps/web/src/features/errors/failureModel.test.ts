import { describe, expect, it } from 'vitest';
import type { FailureCount } from '../../api/failures';
import type { AccountError } from '../../api/types';
import { accountTroubles, failureTargetPath } from './failureModel';

const error = (id: number, at: number): AccountError => ({
  id,
  space_id: 1,
  name: `Account ${id}`,
  provider: 'vk',
  image: null,
  error: 'Token expired',
  error_at: at,
});
const count = (id: number, n: number, at: number): FailureCount => ({
  object_id: id,
  space_id: 1,
  name: `Account ${id}`,
  provider: 'vk',
  count: n,
  last_failed_at: at,
});

describe('the errors dropdown rows', () => {
  it('merges an account error and the failed actions of the same account into one row', () => {
    expect(accountTroubles([error(1, 100)], [count(1, 3, 200)])).toEqual([
      { id: 1, name: 'Account 1', provider: 'vk', error: 'Token expired', failed: 3, at: 200 },
    ]);
  });

  it('lists accounts with only failed actions, without an account error, broken accounts first', () => {
    const rows = accountTroubles([error(2, 50)], [count(3, 1, 300), count(4, 2, 400)]);
    expect(rows.map((r) => [r.id, r.error, r.failed])).toEqual([
      [2, 'Token expired', 0],
      [4, null, 2],
      [3, null, 1],
    ]);
  });

  it('is empty when nothing is wrong', () => {
    expect(accountTroubles([], [])).toEqual([]);
  });
});

describe('where a failed action opens', () => {
  it('the thread, the chat or the author page', () => {
    expect(failureTargetPath({ kind: 'item', id: 7 })).toBe('/items/7');
    expect(failureTargetPath({ kind: 'chat', id: 8 })).toBe('/chats/8/messages');
    expect(failureTargetPath({ kind: 'author', id: 9 })).toBe('/author/9');
    expect(failureTargetPath(null)).toBeNull();
  });
});
