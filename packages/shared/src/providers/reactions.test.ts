import { describe, expect, it } from 'vitest';
import {
  providers,
  TELEGRAM_REACTION_EMOJI,
  VK_REACTION_ID_MAX,
  VK_REACTION_IDS,
  WHATSAPP_REACTION_EMOJI,
} from './index';

// docs/product/limits.md: "Provider reaction sets: VK numeric ids, Telegram about 73 emoji, WhatsApp 12 emoji."

const VARIATION_SELECTOR = '\uFE0F';

describe('reaction sets', () => {
  it('Telegram offers the 73 emoji of the Bot API ReactionTypeEmoji', () => {
    const items = providers.telegram.reactions?.items ?? [];
    expect(items).toHaveLength(73);
    expect(items.map((item) => item.value)).toEqual([...TELEGRAM_REACTION_EMOJI]);
    expect(new Set(TELEGRAM_REACTION_EMOJI).size).toBe(73);
  });

  it('Telegram emoji are spelled as the Bot API lists them', () => {
    // The API rejects '❤️' (with U+FE0F); the ZWJ sequences must keep their joiner.
    for (const emoji of TELEGRAM_REACTION_EMOJI) {
      expect(emoji.includes(VARIATION_SELECTOR), emoji).toBe(false);
    }
    const spelled = TELEGRAM_REACTION_EMOJI as readonly string[];
    expect(spelled).toContain('\u2764');
    expect(spelled).toContain('\u2764\u200D\u{1F525}');
    expect(spelled).toContain('\u{1F468}\u200D\u{1F4BB}');
    expect(spelled).toContain('\u{1F937}\u200D\u2642');
    expect(spelled).toContain('\u{1F937}\u200D\u2640');
    expect(spelled[0]).toBe('👍');
    expect(spelled.at(-1)).toBe('😡');
  });

  it('WhatsApp offers 12 emoji', () => {
    const items = providers.whatsapp.reactions?.items ?? [];
    expect(items).toHaveLength(12);
    expect(items.map((item) => item.value)).toEqual([...WHATSAPP_REACTION_EMOJI]);
    for (const { value } of items) expect(typeof value).toBe('string');
  });

  it('VK reactions are numeric ids within the API range, each with an icon key', () => {
    const items = providers.vk.reactions?.items ?? [];
    expect(items.map((item) => item.value)).toEqual([...VK_REACTION_IDS]);
    for (const { value, image } of items) {
      expect(Number.isInteger(value)).toBe(true);
      expect(value).toBeGreaterThanOrEqual(1);
      expect(value).toBeLessThanOrEqual(VK_REACTION_ID_MAX);
      expect(image).toBe(`vk-reaction-${value}`);
    }
  });

  it('reaction sets apply to private messages', () => {
    for (const id of ['vk', 'telegram', 'whatsapp'] as const) {
      expect(providers[id].reactions?.messages).toBe(true);
    }
  });

  it('only providers with a set offer reactions', () => {
    const withSets = Object.values(providers)
      .filter((entry) => entry.reactions !== null)
      .map((entry) => entry.id)
      .sort();
    expect(withSets).toEqual(['sandbox', 'telegram', 'vk', 'whatsapp']);
  });
});
