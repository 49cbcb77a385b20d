import { type Locale, type NotificationEvent, translate } from '@otklik/shared';
import { pathFor } from '@otklik/shared/routes';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { notificationSpaceSettings, type notifications } from '../../db/schema';
import type { Sealer } from '../../lib/crypto';
import { unsubscribeUrl } from './unsubscribe';

// The notification email (issue 18): its rendering (one notification or a digest, with the one-click
// unsubscribe of RFC 8058) and its sender — the space's own name and address from settings/email, else
// the instance's MAIL_FROM. The delivery job sends it; settings/email previews it and sends a test.

type Notification = typeof notifications.$inferSelect;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Where a notification leads in the app, or null (an account error, a billing notice). */
export function notificationLink(appUrl: string, n: Notification): string | null {
  if (n.issueId !== null) return `${appUrl}${pathFor('issue-page', { id: n.issueId })}`;
  if (n.itemId !== null) return `${appUrl}${pathFor('item', { id: n.itemId })}`;
  if (n.chatId !== null) return `${appUrl}${pathFor('chat-messages', { id: n.chatId })}`;
  return null;
}

export function renderNotificationEmail(
  deps: { sealer: Sealer; appUrl: string },
  locale: Locale,
  spaceName: string,
  userId: number,
  spaceId: number,
  rows: Notification[],
) {
  const single = rows.length === 1 ? rows[0]! : null;
  const events = [...new Set(rows.map((r) => r.event as NotificationEvent))];
  // One event: unsubscribe from it; several: the link unsubscribes from all of them at once.
  const unsubscribe = unsubscribeUrl(deps.sealer, deps.appUrl, { userId, spaceId, events });
  const subject = single
    ? `${single.title} — ${spaceName}`
    : translate(locale, 'notify.digestSubject', {
        count: rows.length,
        space: spaceName,
      });
  const lines = rows.map((n) => {
    const link = notificationLink(deps.appUrl, n);
    return [n.title, n.text, link].filter(Boolean).join('\n');
  });
  const intro = translate(locale, 'notify.digestIntro', { space: spaceName });
  const hint = translate(locale, 'notify.unsubscribeHint');
  const text = `${intro}\n\n${lines.join('\n\n')}\n\n--\n${hint}\n${unsubscribe}\n`;
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5"><p>${escapeHtml(
    intro,
  )}</p>${rows
    .map((n) => {
      const link = notificationLink(deps.appUrl, n);
      return `<p><b>${escapeHtml(n.title)}</b>${n.text ? `<br>${escapeHtml(n.text)}` : ''}${
        link ? `<br><a href="${escapeHtml(link)}">${escapeHtml(translate(locale, 'notify.open'))}</a>` : ''
      }</p>`;
    })
    .join('')}<hr><p style="color:#888">${escapeHtml(hint)} <a href="${escapeHtml(unsubscribe)}">${escapeHtml(
    translate(locale, 'notify.unsubscribeButton'),
  )}</a></p></body></html>`;
  return {
    subject,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** The address part of a From ("Name <a@b>" or "a@b"). */
export function addressOf(from: string): string {
  const m = /<([^>]+)>/.exec(from);
  return (m ? m[1]! : from).trim();
}

/** A From header: the name quoted when it needs to be, quotes and line breaks dropped from it. */
export function formatFrom(name: string | null, address: string): string {
  if (!name) return address;
  const clean = name.replace(/["\\\r\n<>]/g, '').trim();
  return clean ? `"${clean}" <${address}>` : address;
}

export async function emailSettingsOf(db: Db, spaceId: number) {
  const [row] = await db
    .select({
      fromName: notificationSpaceSettings.emailFromName,
      fromAddress: notificationSpaceSettings.emailFromAddress,
    })
    .from(notificationSpaceSettings)
    .where(eq(notificationSpaceSettings.spaceId, spaceId))
    .limit(1);
  return { fromName: row?.fromName ?? null, fromAddress: row?.fromAddress ?? null };
}

/** The From of a space's notification emails: its own name and address, each falling back to MAIL_FROM's. */
export async function spaceSender(db: Db, spaceId: number, defaultFrom: string): Promise<string> {
  return senderOf(await emailSettingsOf(db, spaceId), defaultFrom);
}

/** spaceSender() from the space's settings already read. */
export function senderOf(
  own: { fromName: string | null; fromAddress: string | null },
  defaultFrom: string,
): string {
  if (!own.fromName && !own.fromAddress) return defaultFrom;
  const defaultName = /^\s*"?([^"<]*?)"?\s*</.exec(defaultFrom)?.[1]?.trim() || null;
  return formatFrom(own.fromName ?? defaultName, own.fromAddress ?? addressOf(defaultFrom));
}

export async function saveEmailSettings(
  db: Db,
  spaceId: number,
  input: { from_name: string | null; from_address: string | null },
) {
  const values = {
    emailFromName: input.from_name,
    emailFromAddress: input.from_address,
    updatedAt: new Date(),
  };
  await db
    .insert(notificationSpaceSettings)
    .values({ spaceId, ...values })
    .onConflictDoUpdate({ target: notificationSpaceSettings.spaceId, set: values });
}

/** A sample notification (an assignment) as the email the space's members would get, in `locale`. */
export function previewEmail(
  deps: { sealer: Sealer; appUrl: string },
  locale: Locale,
  space: { id: number; name: string },
  userId: number,
) {
  const sample: Notification = {
    id: 0,
    userId,
    spaceId: space.id,
    event: 'assigned',
    title: translate(locale, 'notify.previewTitle'),
    text: translate(locale, 'notify.previewText'),
    objectId: null,
    itemId: 1,
    chatId: null,
    issueId: null,
    payload: {},
    readAt: null,
    createdAt: new Date(),
  };
  return renderNotificationEmail(deps, locale, space.name, userId, space.id, [sample]);
}
