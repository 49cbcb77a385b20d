import { describe, expect, it } from 'vitest';
import { detectLanguage } from './language';
import { matchesRule } from './rules';

describe('detectLanguage', () => {
  it('tells Russian, English and other languages apart offline', () => {
    expect(detectLanguage('Здравствуйте, где мой заказ?')).toBe('ru');
    expect(detectLanguage('Спасибо! https://shop.example/order/1')).toBe('ru');
    expect(detectLanguage('Hello, where is my order?')).toBe('en');
    expect(detectLanguage('ok')).toBe('en');
    expect(detectLanguage('Доброго дня, дякую за відповідь')).toBe('other');
    expect(detectLanguage('Wo ist meine Bestellung? Vielen Dank für die Hilfe')).toBe('other');
    expect(detectLanguage('Donde esta mi pedido ahora')).toBe('other');
    expect(detectLanguage('谢谢你的帮助')).toBe('other');
    expect(detectLanguage('👍🔥 123')).toBeNull();
  });

  it('is the language condition of the rules', () => {
    const facts = { provider: 'vk', objectId: 1, companyId: null, kind: 'comment', rating: null, tagIds: [] };
    const tree = { all: [{ type: 'language' as const, languages: ['ru' as const] }] };
    expect(matchesRule(tree, { ...facts, text: 'Привет' })).toBe(true);
    expect(matchesRule(tree, { ...facts, text: 'Hi there' })).toBe(false);
    expect(matchesRule(tree, { ...facts, text: '👍' })).toBe(false);
  });
});
