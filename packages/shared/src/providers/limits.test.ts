import { describe, expect, it } from 'vitest';
import {
  attachmentLimit,
  byteLimit,
  canPerform,
  characterCount,
  checkReplyLimits,
  editWindowSeconds,
  getProvider,
  isWithinEditWindow,
  textLimit,
  utf8ByteLength,
} from './index';

const chars = (n: number, char = 'a') => char.repeat(n);

describe('counting', () => {
  it('counts characters as UTF-16 code units and bytes as UTF-8', () => {
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('я')).toBe(1);
    expect(characterCount('😀')).toBe(2);
    expect(utf8ByteLength('abc')).toBe(3);
    expect(utf8ByteLength('я')).toBe(2);
    expect(utf8ByteLength('😀')).toBe(4);
    expect(utf8ByteLength('')).toBe(0);
  });
});

describe('textLimit', () => {
  it('uses the caption limit only when attachments are present', () => {
    expect(textLimit('telegram', 'message', false)).toBe(4096);
    expect(textLimit('telegram', 'message', true)).toBe(1024);
    expect(textLimit('telegram', 'comment', true)).toBe(1024);
    expect(textLimit('vk', 'comment', true)).toBe(10000);
  });

  it('is null where docs/product/validation.md names no limit', () => {
    expect(textLimit('jivo', 'message', false)).toBeNull();
    expect(textLimit('googleplay', 'message', false)).toBeNull();
  });

  it('accepts an entry as well as an id', () => {
    expect(textLimit(getProvider('twitter'), 'comment', false)).toBe(280);
    expect(byteLimit('instagram', 'message')).toBe(1000);
    expect(byteLimit('instagram', 'comment')).toBeNull();
    expect(attachmentLimit('instagram', 'comment')).toBe(0);
  });
});

describe('checkReplyLimits at the boundaries', () => {
  it.each([
    ['vk', 'message', 4000],
    ['vk', 'comment', 10000],
    ['twitter', 'comment', 280],
    ['googleplay', 'comment', 350],
    ['tiktok', 'comment', 150],
    ['af_itunes', 'comment', 5970],
    ['useresponse', 'comment', 32768],
  ] as const)('%s %s text: %i allowed, one more refused', (id, kind, limit) => {
    expect(checkReplyLimits(id, kind, { text: chars(limit - 1), attachments: 0 })).toBeNull();
    expect(checkReplyLimits(id, kind, { text: chars(limit), attachments: 0 })).toBeNull();
    expect(checkReplyLimits(id, kind, { text: chars(limit + 1), attachments: 0 })).toEqual({
      code: 'text_too_long',
      limit,
    });
  });

  it('Telegram: 4096 without attachments, 1024 as a caption', () => {
    const send = (length: number, attachments: number) =>
      checkReplyLimits('telegram', 'message', { text: chars(length), attachments });
    expect(send(4095, 0)).toBeNull();
    expect(send(4096, 0)).toBeNull();
    expect(send(4097, 0)).toEqual({ code: 'text_too_long', limit: 4096 });
    expect(send(1023, 1)).toBeNull();
    expect(send(1024, 1)).toBeNull();
    expect(send(1025, 1)).toEqual({ code: 'text_too_long', limit: 1024 });
  });

  it('Instagram messages: 550 characters and 1000 UTF-8 bytes', () => {
    const send = (text: string) => checkReplyLimits('instagram', 'message', { text, attachments: 0 });
    // Characters: ASCII, so bytes never bind.
    expect(send(chars(549))).toBeNull();
    expect(send(chars(550))).toBeNull();
    expect(send(chars(551))).toEqual({ code: 'text_too_long', limit: 550 });
    // Bytes: 'я' is 2 bytes, so ~500 characters reach 1000 bytes well under 550 characters.
    expect(send(`${chars(499, 'я')}a`)).toBeNull(); // 999 bytes
    expect(send(chars(500, 'я'))).toBeNull(); // 1000 bytes
    expect(send(`${chars(500, 'я')}a`)).toEqual({ code: 'bytes_too_long', limit: 1000 }); // 1001 bytes
  });

  it.each([
    ['vk', 'comment', 5],
    ['vk', 'message', 5],
    ['twitter', 'comment', 4],
    ['twitter', 'message', 1],
    ['telegram', 'message', 5],
    ['useresponse', 'comment', 5],
    ['max', 'message', 1],
  ] as const)('%s %s attachments: %i allowed, one more refused', (id, kind, limit) => {
    expect(checkReplyLimits(id, kind, { text: 'ok', attachments: limit - 1 })).toBeNull();
    expect(checkReplyLimits(id, kind, { text: 'ok', attachments: limit })).toBeNull();
    expect(checkReplyLimits(id, kind, { text: 'ok', attachments: limit + 1 })).toEqual({
      code: 'too_many_attachments',
      limit,
    });
  });

  it('refuses attachments where docs/product/validation.md lists none', () => {
    expect(checkReplyLimits('instagram', 'comment', { text: 'ok', attachments: 1 })).toEqual({
      code: 'too_many_attachments',
      limit: 0,
    });
    expect(checkReplyLimits('googleplay', 'comment', { text: 'ok', attachments: 1 })).toEqual({
      code: 'too_many_attachments',
      limit: 0,
    });
    expect(checkReplyLimits('max', 'comment', { text: 'ok', attachments: 0 })).toBeNull();
  });

  it('refuses a kind the provider does not carry', () => {
    expect(checkReplyLimits('googleplay', 'message', { text: 'hi', attachments: 0 })).toEqual({
      code: 'not_supported',
      limit: 0,
    });
    expect(checkReplyLimits('viber', 'comment', { text: 'hi', attachments: 0 })).toEqual({
      code: 'not_supported',
      limit: 0,
    });
    expect(checkReplyLimits('youtube', 'message', { text: 'hi', attachments: 0 })).toEqual({
      code: 'not_supported',
      limit: 0,
    });
  });

  it('reports the attachment count before the text length', () => {
    expect(checkReplyLimits('twitter', 'comment', { text: chars(500), attachments: 5 })).toEqual({
      code: 'too_many_attachments',
      limit: 4,
    });
  });

  it('lets any length through where no limit is known', () => {
    expect(checkReplyLimits('jivo', 'message', { text: chars(100_000), attachments: 0 })).toBeNull();
  });
});

describe('actions', () => {
  it('canPerform reads the flags; a timed edit counts as allowed', () => {
    expect(canPerform('vk', 'restore')).toBe(true);
    expect(canPerform('vk', 'edit_comment')).toBe(true);
    expect(canPerform('vk', 'hide')).toBe(false);
    expect(canPerform('telegram', 'restore')).toBe(false);
    expect(canPerform('telegram', 'react')).toBe(true);
    expect(canPerform('instagram', 'like')).toBe(false);
    expect(canPerform('facebook', 'direct')).toBe(true);
  });

  it('editWindowSeconds: seconds, Infinity when unbounded, null when not editable', () => {
    expect(editWindowSeconds('vk')).toBe(43200);
    expect(editWindowSeconds('telegram')).toBe(Number.POSITIVE_INFINITY);
    expect(editWindowSeconds('whatsapp')).toBeNull();
  });

  it('isWithinEditWindow ends at the window boundary', () => {
    const sentAt = 1_700_000_000;
    expect(isWithinEditWindow('vc', sentAt, sentAt + 1199)).toBe(true);
    expect(isWithinEditWindow('vc', sentAt, sentAt + 1200)).toBe(false);
    expect(isWithinEditWindow('vk', sentAt, sentAt + 43_199)).toBe(true);
    expect(isWithinEditWindow('vk', sentAt, sentAt + 43_200)).toBe(false);
    expect(isWithinEditWindow('telegram', sentAt, sentAt + 10 * 365 * 86_400)).toBe(true);
    expect(isWithinEditWindow('whatsapp', sentAt, sentAt)).toBe(false);
  });

  it('getProvider throws on an id that slipped past the types', () => {
    expect(() => getProvider('nope' as 'vk')).toThrow('Unknown provider id: nope');
  });
});
