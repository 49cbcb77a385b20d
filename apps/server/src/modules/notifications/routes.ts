import {
  channelHealthWireSchema,
  DEFAULT_LOCALE,
  emailPreviewWireSchema,
  type Locale,
  notificationListQuery,
  notificationListWireSchema,
  notificationsReadAllWireSchema,
  notificationUnreadWireSchema,
  notificationWatchBody,
  notificationWatchWireSchema,
  type SpaceEmailSettingsWire,
  spaceEmailSettingsBody,
  spaceEmailSettingsWireSchema,
  spaceNotificationSettingsBody,
  spaceNotificationSettingsWireSchema,
  subscriptionsBody,
  subscriptionsWireSchema,
  telegramCodeWireSchema,
  telegramLinkWireSchema,
  testEmailWireSchema,
  translate,
} from '@otklik/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { spaces } from '../../db/schema';
import { type Authenticate, signedInScope } from '../../http/auth';
import { AppError } from '../../lib/errors';
import { telegramApi } from '../../providers/telegram/client';
import type { AppDeps } from '../deps';
import { authorize, isMember, type ServerActor } from '../spaces/actor';
import { emailSettingsOf, previewEmail, saveEmailSettings, spaceSender } from './email';
import { presentNotification } from './presenter';
import * as service from './service';
import { registerSlackRoutes } from './slack-routes';
import { createLinkCode, telegramLink, unlinkTelegram } from './telegram';
import { openUnsubscribeToken } from './unsubscribe';
import { saveWatch, watchOf } from './watches';

const TAG = ['notifications'];
const INT_MAX = 2 ** 31 - 1;
const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().max(INT_MAX) });
/** Who may change a space's defaults and quiet hours (settings/notifications). */
const MANAGE = 'settings.manage' as const;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(locale: Locale, body: string) {
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Otklik</title></head><body style="font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5">${body}</body></html>`;
}

/** Notifications (issue 18): the centre, unread count, mark read, subscriptions, space defaults, unsubscribe. */
export async function registerNotificationsModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  const { db } = deps.database;
  const notifyDeps = { db, bus: deps.bus };
  await signedInScope(root, authenticate, async (app) => {
    const memberSpaces = (actor: ServerActor) => actor.rows.map((r) => r.space.id);

    app.get(
      '/notifications',
      {
        schema: {
          tags: TAG,
          summary: 'My notifications, newest first',
          querystring: notificationListQuery,
          response: { 200: notificationListWireSchema },
        },
      },
      async (req) => {
        const spaceIds = memberSpaces(req.actor);
        const list = await service.listNotifications(db, req.auth!.user.id, spaceIds, {
          before: req.query.before,
          limit: req.query.limit,
          unreadOnly: req.query.unread === '1',
        });
        return { items: list.rows.map(presentNotification), unread: list.unread, next: list.next };
      },
    );

    app.get(
      '/notifications/unread',
      {
        schema: {
          tags: TAG,
          summary: 'How many are unread',
          response: { 200: notificationUnreadWireSchema },
        },
      },
      async (req) => ({
        unread: await service.unreadCount(db, req.auth!.user.id, memberSpaces(req.actor)),
      }),
    );

    app.post(
      '/notifications/:id/read',
      {
        schema: {
          tags: TAG,
          summary: 'Mark one read',
          params: idParams,
          response: { 200: notificationUnreadWireSchema },
        },
      },
      async (req) => {
        await service.markRead(notifyDeps, req.auth!.user.id, [req.params.id]);
        return { unread: await service.unreadCount(db, req.auth!.user.id, memberSpaces(req.actor)) };
      },
    );

    app.post(
      '/notifications/read-all',
      { schema: { tags: TAG, summary: 'Mark all read', response: { 200: notificationsReadAllWireSchema } } },
      async (req) => {
        const marked = await service.markRead(notifyDeps, req.auth!.user.id, 'all');
        return { marked, unread: 0 };
      },
    );

    app.get(
      '/notifications/channels',
      {
        schema: {
          tags: TAG,
          summary: 'Whether my channels deliver (failed emails lately)',
          response: { 200: channelHealthWireSchema },
        },
      },
      async (req) => service.channelHealth(db, req.auth!.user.id, new Date(), memberSpaces(req.actor)),
    );

    app.get(
      '/notifications/subscriptions',
      {
        schema: {
          tags: TAG,
          summary: 'My subscriptions in a space',
          querystring: spaceQuery,
          response: { 200: subscriptionsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        if (!isMember(actor, req.query.space_id)) throw new AppError(404, 'error.notFound');
        return service.subscriptionsOf(db, actor.userId, req.query.space_id);
      },
    );

    app.put(
      '/notifications/subscriptions',
      {
        schema: {
          tags: TAG,
          summary: 'Change my subscriptions in a space',
          body: subscriptionsBody,
          response: { 200: subscriptionsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        if (!isMember(actor, req.body.space_id)) throw new AppError(404, 'error.notFound');
        for (const item of req.body.items)
          if (item.channel !== 'email' && !['never', 'at_once'].includes(item.frequency))
            throw new AppError(400, 'field.invalid', {
              errorType: 'validation',
              fields: { items: 'field.invalid' },
            });
        return service.saveSubscriptions(db, actor.userId, req.body.space_id, req.body.items);
      },
    );

    app.get(
      '/notifications/watches',
      {
        schema: {
          tags: TAG,
          summary: 'The accounts and saved filters I watch in a space (new_item, comments_filter)',
          querystring: spaceQuery,
          response: { 200: notificationWatchWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        if (!isMember(actor, req.query.space_id)) throw new AppError(404, 'error.notFound');
        return watchOf(db, actor.userId, req.query.space_id);
      },
    );

    app.put(
      '/notifications/watches',
      {
        schema: {
          tags: TAG,
          summary: 'Choose the accounts and saved filters I watch in a space',
          body: notificationWatchBody,
          response: { 200: notificationWatchWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        if (!isMember(actor, req.body.space_id)) throw new AppError(404, 'error.notFound');
        return saveWatch(db, actor.userId, req.body.space_id, req.body);
      },
    );

    // settings/email: the space's sender of notification emails, a test email, the preview (settings.manage).
    const emailView = async (spaceId: number): Promise<SpaceEmailSettingsWire> => {
      const own = await emailSettingsOf(db, spaceId);
      return {
        space_id: spaceId,
        from_name: own.fromName,
        from_address: own.fromAddress,
        from: await spaceSender(db, spaceId, deps.mailer.defaultFrom),
        smtp: deps.mailer.delivers,
      };
    };
    const spaceRow = async (spaceId: number) => {
      const [row] = await db.select().from(spaces).where(eq(spaces.id, spaceId)).limit(1);
      if (!row) throw new AppError(404, 'error.notFound');
      return row;
    };

    app.get(
      '/notifications/email',
      {
        schema: {
          tags: TAG,
          summary: 'The sender of a space’s notification emails',
          querystring: spaceQuery,
          response: { 200: spaceEmailSettingsWireSchema },
        },
      },
      async (req) => {
        authorize(req.actor, MANAGE, req.query.space_id);
        return emailView(req.query.space_id);
      },
    );

    app.put(
      '/notifications/email',
      {
        schema: {
          tags: TAG,
          summary: 'Change the sender of a space’s notification emails',
          body: spaceEmailSettingsBody,
          response: { 200: spaceEmailSettingsWireSchema },
        },
      },
      async (req) => {
        authorize(req.actor, MANAGE, req.body.space_id);
        await saveEmailSettings(db, req.body.space_id, req.body);
        return emailView(req.body.space_id);
      },
    );

    app.post(
      '/notifications/email/test',
      {
        schema: {
          tags: TAG,
          summary: 'Send a test email to myself through the configured mailer, from the space’s sender',
          body: z.object({ space_id: z.number().int().positive().max(INT_MAX) }),
          response: { 200: testEmailWireSchema },
        },
      },
      async (req) => {
        const user = req.auth!.user;
        authorize(req.actor, MANAGE, req.body.space_id);
        if (!user.email) throw new AppError(400, 'field.invalid');
        const space = await spaceRow(req.body.space_id);
        const locale: Locale = user.locale === 'en' ? 'en' : user.locale === 'ru' ? 'ru' : DEFAULT_LOCALE;
        const from = await spaceSender(db, space.id, deps.mailer.defaultFrom);
        const text = translate(locale, 'notify.testText', { space: space.name });
        try {
          await deps.mailer.sendNow({
            to: user.email,
            from,
            kind: 'notification_test',
            subject: translate(locale, 'notify.testSubject', { space: space.name }),
            text,
            html: `<!doctype html><html><body style="font-family:sans-serif"><p>${escapeHtml(text)}</p></body></html>`,
          });
        } catch (error) {
          throw new AppError(502, 'notify.testFailed', {
            params: { error: (error instanceof Error ? error.message : String(error)).slice(0, 300) },
          });
        }
        return { sent: true as const, to: user.email, from, smtp: deps.mailer.delivers };
      },
    );

    app.get(
      '/notifications/email/preview',
      {
        schema: {
          tags: TAG,
          summary: 'The notification email as members get it, in Russian or English',
          querystring: spaceQuery.extend({ locale: z.enum(['ru', 'en']).default('ru') }),
          response: { 200: emailPreviewWireSchema },
        },
      },
      async (req) => {
        authorize(req.actor, MANAGE, req.query.space_id);
        const space = await spaceRow(req.query.space_id);
        const mail = previewEmail(
          { sealer: deps.sealer, appUrl: deps.config.appUrl },
          req.query.locale,
          space,
          req.auth!.user.id,
        );
        return {
          locale: req.query.locale,
          from: await spaceSender(db, space.id, deps.mailer.defaultFrom),
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        };
      },
    );

    app.get(
      '/notifications/settings',
      {
        schema: {
          tags: TAG,
          summary: 'A space’s defaults and quiet hours',
          querystring: spaceQuery,
          response: { 200: spaceNotificationSettingsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, MANAGE, req.query.space_id);
        return service.presentSpaceSettings(
          req.query.space_id,
          await service.spaceSettings(db, req.query.space_id),
        );
      },
    );

    app.put(
      '/notifications/settings',
      {
        schema: {
          tags: TAG,
          summary: 'Change a space’s defaults and quiet hours',
          body: spaceNotificationSettingsBody,
          response: { 200: spaceNotificationSettingsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, MANAGE, req.body.space_id);
        return service.saveSpaceSettings(db, req.body.space_id, req.body);
      },
    );

    // Telegram (issue 18): whether the instance has a notification bot, link with a one-time code, unlink.
    const botToken = deps.config.NOTIFY_TELEGRAM_BOT_TOKEN;
    const botApi = botToken ? telegramApi({ config: deps.config, fetch }, botToken) : undefined;
    let botUsername: Promise<string | null> | undefined;
    const bot = async () => {
      if (!botApi) return null;
      botUsername ??= botApi
        .getMe()
        .then((me) => me.username ?? null)
        .catch(() => {
          botUsername = undefined;
          return null;
        });
      return { username: await botUsername };
    };

    app.get(
      '/notifications/telegram',
      { schema: { tags: TAG, summary: 'My Telegram link', response: { 200: telegramLinkWireSchema } } },
      async (req) => telegramLink(db, req.auth!.user.id, await bot()),
    );

    app.post(
      '/notifications/telegram/code',
      {
        schema: {
          tags: TAG,
          summary: 'A one-time code to link my Telegram chat',
          response: { 200: telegramCodeWireSchema },
        },
      },
      async (req) => {
        const found = await bot();
        if (!found) throw new AppError(404, 'error.notFound');
        return createLinkCode(db, req.auth!.user.id, found.username);
      },
    );

    app.delete(
      '/notifications/telegram',
      {
        schema: { tags: TAG, summary: 'Unlink my Telegram chat', response: { 200: telegramLinkWireSchema } },
      },
      async (req) => {
        await unlinkTelegram(db, req.auth!.user.id);
        return telegramLink(db, req.auth!.user.id, await bot());
      },
    );
  });

  // Public: the link in a notification mail (no session).
  const app = root.withTypeProvider<ZodTypeProvider>();
  // RFC 8058: GET shows a confirmation (link scanners must not unsubscribe anyone); POST unsubscribes,
  // from the page's button or from the mail client's one-click (body List-Unsubscribe=One-Click).
  const tokenQuery = z.object({ token: z.string().min(1).max(2000) });
  const localeOf = (header: string | undefined): Locale =>
    header?.toLowerCase().startsWith('en') ? 'en' : DEFAULT_LOCALE;

  app.get(
    '/notifications/unsubscribe',
    { schema: { hide: true, querystring: tokenQuery } },
    async (req, reply) => {
      const locale = localeOf(req.headers['accept-language']);
      const target = openUnsubscribeToken(deps.sealer, req.query.token);
      if (!target) throw new AppError(404, 'error.notFound');
      const action = `?token=${encodeURIComponent(req.query.token)}`;
      return reply
        .type('text/html; charset=utf-8')
        .send(
          page(
            locale,
            `<p>${escapeHtml(translate(locale, 'notify.unsubscribeConfirm'))}</p><form method="post" action="${escapeHtml(
              action,
            )}"><button type="submit">${escapeHtml(translate(locale, 'notify.unsubscribeButton'))}</button></form>`,
          ),
        );
    },
  );

  app.post(
    '/notifications/unsubscribe',
    { schema: { hide: true, querystring: tokenQuery } },
    async (req, reply) => {
      const locale = localeOf(req.headers['accept-language']);
      const target = openUnsubscribeToken(deps.sealer, req.query.token);
      if (!target) throw new AppError(404, 'error.notFound');
      for (const event of target.events)
        await service.unsubscribeEmail(db, target.userId, target.spaceId, event);
      return reply
        .type('text/html; charset=utf-8')
        .send(page(locale, `<p>${escapeHtml(translate(locale, 'notify.unsubscribed'))}</p>`));
    },
  );
  await registerSlackRoutes(root, deps, authenticate);
}
