import { describe, expect, it } from 'vitest';
import { colleagueAnswering } from './bulkLock';

describe('bulk reply and who is answering (docs/product/api.md lock)', () => {
  const holders = new Map([
    ['item:2', { id: 7, name: 'Anna' }],
    ['item:3', { id: 1, name: 'Me' }],
  ]);
  const holderOf = (key: string) => holders.get(key) ?? null;

  it('names the colleague holding any selected item', () => {
    expect(colleagueAnswering([1, 2, 3], holderOf, 1)).toEqual({ id: 7, name: 'Anna' });
  });

  it('ignores free items and locks of the current user', () => {
    expect(colleagueAnswering([1, 3], holderOf, 1)).toBeNull();
    expect(colleagueAnswering([], holderOf, 1)).toBeNull();
  });

  it('reads chat locks for a chat list', () => {
    const chats = new Map([['chat:2', { id: 7, name: 'Anna' }]]);
    const chatHolder = (key: string) => chats.get(key) ?? null;
    expect(colleagueAnswering([2], chatHolder, 1, 'chat')).toEqual({ id: 7, name: 'Anna' });
    expect(colleagueAnswering([2], chatHolder, 1)).toBeNull();
  });
});
