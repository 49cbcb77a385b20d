import { describe, expect, it } from 'vitest';
import type { InboxData } from '../hooks/useInboxData';
import { companyTagsOnly, tagOptions } from './tags';

// Issue 13 #16: a company's tags_mode in the tag picker of its accounts' items and chats.

const tag = (id: number, company_id: number | null) =>
  ({ id, name: `t${id}`, space_id: 1, parent_id: null, company_id }) as never;
const tags = [tag(1, 7), tag(2, null), tag(3, 8)];

const data = (mode: 'space' | 'company') =>
  ({
    objectsById: new Map([
      [10, { id: 10, company_id: 7 }],
      [11, { id: 11, company_id: null }],
    ]),
    companiesById: new Map([[7, { id: 7, settings: { tags_mode: mode } }]]),
  }) as unknown as InboxData;

describe('tags offered by the company tags_mode', () => {
  it("'company' offers the company's tags, plus those already on the record", () => {
    expect(companyTagsOnly(10, data('company'))).toBe(7);
    expect(tagOptions(tags, 1, 7).map((o) => o.value)).toEqual(['1']);
    expect(tagOptions(tags, 1, 7, [2]).map((o) => o.value)).toEqual(['1', '2']);
  });

  it("'space' or an account without a company offers every tag of the space", () => {
    expect(companyTagsOnly(10, data('space'))).toBeNull();
    expect(companyTagsOnly(11, data('company'))).toBeNull();
    expect(tagOptions(tags, 1, null).map((o) => o.value)).toEqual(['1', '2', '3']);
  });
});
