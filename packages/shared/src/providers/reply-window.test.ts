import { describe, expect, it } from 'vitest';
import { PROVIDER_IDS } from './ids';
import {
  DIRECT_REPLY_WINDOW_S,
  MESSAGE_REPLY_WINDOW_S,
  replyDeadline,
  replyWindowSeconds,
} from './reply-window';

describe('reply windows', () => {
  it('Messenger, Instagram and WhatsApp take a message for 24 h after the customer’s last one', () => {
    for (const p of ['facebook', 'instagram', 'whatsapp'])
      expect(replyWindowSeconds(p, 'message')).toBe(86_400);
    expect(replyWindowSeconds('telegram', 'message')).toBeNull();
    expect(replyWindowSeconds('facebook', 'comment')).toBeNull();
    expect(replyWindowSeconds('instagram', 'direct')).toBe(7 * 86_400);
  });

  it('the deadline counts from the customer’s message; none without a window or a message', () => {
    const at = new Date('2026-11-20T10:00:00Z');
    expect(replyDeadline('whatsapp', 'message', at)?.toISOString()).toBe('2026-11-21T10:00:00.000Z');
    expect(replyDeadline('whatsapp', 'message', null)).toBeNull();
    expect(replyDeadline('sandbox', 'message', at)).toBeNull();
  });

  it('names only known networks', () => {
    for (const p of [...Object.keys(MESSAGE_REPLY_WINDOW_S), ...Object.keys(DIRECT_REPLY_WINDOW_S)])
      expect(PROVIDER_IDS).toContain(p);
  });
});
