import { describe, expect, it } from 'vitest';
import {
  factsNeeded,
  isSafeRegex,
  matchesRule,
  type RuleFacts,
  ruleConditionsSchema,
  ruleFormSchema,
} from './rules';

const facts = (over: Partial<RuleFacts> = {}): RuleFacts => ({
  text: '',
  provider: 'vk',
  objectId: 1,
  companyId: null,
  kind: 'comment',
  rating: null,
  tagIds: [],
  ...over,
});

describe('isSafeRegex', () => {
  it('accepts plain patterns and refuses catastrophic, back-referencing, too long or broken ones', () => {
    expect(isSafeRegex('иди\\s*от')).toBe(true);
    expect(isSafeRegex('(купи|продам) дёшево')).toBe(true);
    expect(isSafeRegex('[a-z]+@[a-z]+')).toBe(true);
    expect(isSafeRegex('(a+)+$')).toBe(false);
    expect(isSafeRegex('(x*)*y')).toBe(false);
    expect(isSafeRegex('(a|aa)+')).toBe(false);
    expect(isSafeRegex('((ab)*c)+')).toBe(false);
    expect(isSafeRegex('(a)\\1')).toBe(false);
    expect(isSafeRegex('(?=a)')).toBe(false);
    expect(isSafeRegex('a'.repeat(201))).toBe(false);
    expect(isSafeRegex('(')).toBe(false);
  });
});

describe('matchesRule', () => {
  it('text, links, contacts and emoji', () => {
    const has = (type: 'has_link' | 'has_contact' | 'only_emoji', text: string) =>
      matchesRule({ all: [{ type }] }, facts({ text }));
    expect(
      matchesRule({ all: [{ type: 'text_contains', values: ['ДУРАК'] }] }, facts({ text: 'вы дураки' })),
    ).toBe(true);
    expect(has('has_link', 'зайдите на https://spam.example')).toBe(true);
    expect(has('has_link', 'пишите на shop.ru')).toBe(true);
    expect(has('has_link', 'просто текст.')).toBe(false);
    expect(has('has_contact', 'звоните +7 912 345-67-89')).toBe(true);
    expect(has('has_contact', 'почта win@prize.example')).toBe(true);
    expect(has('has_contact', 'заказ 12')).toBe(false);
    expect(has('only_emoji', '👍🔥 ❤️')).toBe(true);
    expect(has('only_emoji', '👍 спасибо')).toBe(false);
    expect(has('only_emoji', '   ')).toBe(false);
  });

  it('networks, accounts, kinds, ratings, tags, negation and nested groups', () => {
    const review = facts({ kind: 'review', rating: 2, provider: 'yandex', objectId: 7, tagIds: [3] });
    expect(
      matchesRule(
        {
          all: [
            { type: 'kind', kinds: ['review'] },
            { type: 'rating', min: 1, max: 2 },
          ],
        },
        review,
      ),
    ).toBe(true);
    expect(matchesRule({ all: [{ type: 'rating', min: 4, max: 5 }] }, review)).toBe(false);
    expect(matchesRule({ all: [{ type: 'network', providers: ['vk'], negate: true }] }, review)).toBe(true);
    expect(
      matchesRule(
        {
          all: [
            { type: 'account', object_ids: [7] },
            { type: 'tag', tag_ids: [3, 4] },
          ],
        },
        review,
      ),
    ).toBe(true);
    const tree = {
      all: [
        { type: 'kind' as const, kinds: ['review' as const] },
        {
          any: [
            { type: 'tag' as const, tag_ids: [9] },
            { type: 'network' as const, providers: ['yandex'] },
          ],
        },
      ],
    };
    expect(matchesRule(tree, review)).toBe(true);
    expect(matchesRule({ all: [{ type: 'company', company_ids: [5] }] }, { ...review, companyId: 5 })).toBe(
      true,
    );
    expect(matchesRule({ all: [{ type: 'company', company_ids: [5] }] }, review)).toBe(false);
    expect(matchesRule({ all: [] }, review)).toBe(true);
    expect(matchesRule({ any: [] }, review)).toBe(false);
  });
});

describe('author and publication conditions', () => {
  it('count the author’s items (1..1 is a new author), read labels and the publication text', () => {
    const f = facts({ authorItems: 1, authorLabelIds: [4], postText: 'Акция: скидки на кофе' });
    expect(matchesRule({ all: [{ type: 'author_items', min: 1, max: 1 }] }, f)).toBe(true);
    expect(matchesRule({ all: [{ type: 'author_items', min: 5, max: null }] }, f)).toBe(false);
    expect(
      matchesRule({ all: [{ type: 'author_items', min: 5, max: null }] }, { ...f, authorItems: 9 }),
    ).toBe(true);
    expect(matchesRule({ all: [{ type: 'author_label', label_ids: [4] }] }, f)).toBe(true);
    expect(matchesRule({ all: [{ type: 'post_contains', values: ['АКЦИЯ'] }] }, f)).toBe(true);
    expect(matchesRule({ all: [{ type: 'post_contains', values: ['розыгрыш'] }] }, f)).toBe(false);
  });

  it('factsNeeded names only what the trees read', () => {
    expect(factsNeeded([{ all: [{ type: 'has_link' }] }])).toEqual({
      authorItems: false,
      authorLabels: false,
      post: false,
      businessHours: false,
    });
    expect(
      factsNeeded([
        {
          any: [
            { all: [{ type: 'author_items', min: 1, max: 1 }] },
            { type: 'post_contains', values: ['x'] },
          ],
        },
      ]),
    ).toEqual({ authorItems: true, authorLabels: false, post: true, businessHours: false });
    expect(factsNeeded([{ any: [{ type: 'business_hours', negate: true }] }]).businessHours).toBe(true);
  });

  it('business hours: within when the fact says so; without a schedule (no fact) never', () => {
    const within = { all: [{ type: 'business_hours' as const }] };
    const outside = { all: [{ type: 'business_hours' as const, negate: true }] };
    expect(matchesRule(within, facts({ withinBusinessHours: true }))).toBe(true);
    expect(matchesRule(within, facts({ withinBusinessHours: false }))).toBe(false);
    expect(matchesRule(within, facts())).toBe(false);
    expect(matchesRule(outside, facts({ withinBusinessHours: false }))).toBe(true);
    expect(ruleConditionsSchema.safeParse(within).success).toBe(true);
  });
});

describe('schemas', () => {
  it('refuse trees nested too deep and a no-reply rule without minutes', () => {
    const deep = { all: [{ any: [{ all: [{ any: [{ all: [{ type: 'has_link' }] }] }] }] }] };
    const checked = ruleConditionsSchema.safeParse(deep);
    expect(checked.success).toBe(false);
    const form = ruleFormSchema.safeParse({
      name: 'x',
      trigger: 'no_reply',
      minutes: null,
      conditions: { all: [] },
      actions: [{ type: 'close' }],
      paused: false,
      stop_processing: false,
      position: 0,
    });
    expect(form.success).toBe(false);
    expect(form.error?.issues.map((i) => i.message)).toContain('rules.minutes.invalid');
    const like = ruleFormSchema.safeParse({
      name: 'x',
      trigger: 'item_created',
      minutes: null,
      conditions: { all: [] },
      actions: [
        { type: 'reply_template', template_id: 1 },
        { type: 'reply_template', template_id: 2 },
      ],
      paused: false,
      stop_processing: false,
      position: 0,
    });
    expect(like.success).toBe(false);
  });
});
