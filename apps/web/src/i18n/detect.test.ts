import { describe, expect, it } from 'vitest';
import { detectLocale, localeFromNavigator } from './detect';

describe('detectLocale', () => {
  it('prefers ?locale=, then the stored choice, then the browser', () => {
    expect(detectLocale({ search: '?locale=en', stored: 'ru', languages: ['ru-RU'] })).toBe('en');
    expect(detectLocale({ search: '?locale=de', stored: 'en', languages: ['ru-RU'] })).toBe('en');
    expect(detectLocale({ search: '', stored: null, languages: ['ru-RU', 'en'] })).toBe('ru');
    expect(detectLocale({ search: '', stored: null, languages: ['de-DE', 'fr'] })).toBe('en');
  });

  it('gives English to non-Russian browsers and Russian when nothing is known', () => {
    expect(localeFromNavigator(['en-US'])).toBe('en');
    expect(localeFromNavigator(['uk', 'ru'])).toBe('ru');
    expect(localeFromNavigator([])).toBe('ru');
  });
});
