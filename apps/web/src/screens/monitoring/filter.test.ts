import { describe, expect, it } from 'vitest';
import { filterFromParams } from './filter';

describe('monitoring filter in the address', () => {
  it('reads the known keys in their shapes and drops only a malformed one', () => {
    expect(
      filterFromParams(new URLSearchParams('object_id=7&provider=vk&sentiment=negative&read=unread&page=2')),
    ).toEqual({ object_id: 7, provider: 'vk', sentiment: 'negative', read: 'unread' });
    expect(filterFromParams(new URLSearchParams('sentiment=angry&read=read&object_id=x'))).toEqual({
      read: 'read',
    });
    expect(filterFromParams(new URLSearchParams(''))).toEqual({});
  });
});
