import { NOTIFICATION_EVENTS, type NotificationEvent } from '@otklik/shared';
import { z } from 'zod';
import type { Sealer } from '../../lib/crypto';

// The unsubscribe link of every notification email (RFC 8058 List-Unsubscribe): a token sealed with the
// instance key names the user, the space and the events, so the link works without signing in and
// cannot be made up or changed for someone else.

const tokenSchema = z.object({
  u: z.number().int().positive(),
  s: z.number().int().positive(),
  e: z.array(z.enum(NOTIFICATION_EVENTS)).min(1),
});

export interface UnsubscribeTarget {
  userId: number;
  spaceId: number;
  events: NotificationEvent[];
}

export function unsubscribeToken(sealer: Sealer, target: UnsubscribeTarget): string {
  return sealer.seal(JSON.stringify({ u: target.userId, s: target.spaceId, e: target.events }));
}

export function unsubscribeUrl(sealer: Sealer, appUrl: string, target: UnsubscribeTarget): string {
  return `${appUrl}/v1/notifications/unsubscribe?token=${encodeURIComponent(unsubscribeToken(sealer, target))}`;
}

/** The target of a token, or null when it was not sealed here (or is malformed). */
export function openUnsubscribeToken(sealer: Sealer, token: string): UnsubscribeTarget | null {
  try {
    const parsed = tokenSchema.safeParse(JSON.parse(sealer.open(token)));
    if (!parsed.success) return null;
    return { userId: parsed.data.u, spaceId: parsed.data.s, events: parsed.data.e };
  } catch {
    return null;
  }
}
