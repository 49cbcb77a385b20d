import { describe, expect, it } from 'vitest';
import { filterTemplates, renderTemplateText, slashQuery, templateTextFor } from './templates';

describe('the composer `/` trigger', () => {
  it('opens only at the start of the reply, on one line', () => {
    expect(slashQuery('')).toBeNull();
    expect(slashQuery('hello /x')).toBeNull();
    expect(slashQuery('/')).toBe('');
    expect(slashQuery('/спас')).toBe('спас');
    expect(slashQuery('/a\nb')).toBeNull();
  });

  it('filters by title, folder or text, most used first', () => {
    const list = [
      { title: 'Доставка', folder: 'Логистика', text: 'Курьер едет', usage_count: 1 },
      { title: 'Спасибо', folder: '', text: 'Спасибо за отзыв', usage_count: 5 },
      { title: 'Возврат', folder: 'Логистика', text: 'Оформим', usage_count: 9 },
    ];
    expect(filterTemplates(list, 'логист').map((t) => t.title)).toEqual(['Возврат', 'Доставка']);
    expect(filterTemplates(list, '').map((t) => t.title)).toEqual(['Возврат', 'Спасибо', 'Доставка']);
    expect(filterTemplates(list, 'ОТЗЫВ').map((t) => t.title)).toEqual(['Спасибо']);
  });
});

describe('renderTemplateText', () => {
  it('fills given values, then custom defaults, else nothing', () => {
    expect(
      renderTemplateText(
        '{author_name}, {promo} {x} {operator_name}',
        { author_name: 'Анна', operator_name: '' },
        [{ name: 'promo', default: 'SALE' }],
      ),
    ).toBe('Анна, SALE  ');
  });

  it('picks the network variant when it has text', () => {
    const tpl = { text: 'main', variants: { vk: 'vk text', ok: ' ' } };
    expect(templateTextFor(tpl, 'vk')).toBe('vk text');
    expect(templateTextFor(tpl, 'ok')).toBe('main');
    expect(templateTextFor(tpl, null)).toBe('main');
  });
});
