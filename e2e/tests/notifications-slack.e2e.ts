// Issue 18: Slack. The administrator installs the instance's Slack app from settings/notifications
// through the Slack emulator's OAuth v2 consent page (back through /callback/slack and POST
// /v1/slack/auth), picks a channel, and a colleague's assignment arrives in that channel as a message
// naming whom it is for. Then the screen in ru and en, 375 and 1381 wide; a member's subscriptions
// get a Slack column.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type SlackEmulator, startSlackEmulator } from '../../apps/server/emulators/slack/emulator';
import {
  type ApiTokens,
  type AppHandle,
  apiOk,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  extractLink,
  launchBrowser,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
  uniqueEmail,
} from '../harness';

interface ConfigBody {
  spaces: { id: number }[];
  user_statuses: { id: number; offline: boolean; hidden: boolean; space_id: number }[];
}

describe('Slack notifications', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let slack: SlackEmulator;
  let owner: ConfirmedUser;
  let spaceId: number;
  let onlineStatus: number;
  let token: string;
  const contexts: BrowserContext[] = [];

  async function operator(name: string): Promise<ApiTokens & { id: number }> {
    const email = uniqueEmail('operator');
    await apiOk(app.url, 'POST', '/v1/users', {
      token: owner.tokens.access_token,
      body: { email, space_id: spaceId, role: 'operator' },
    });
    const link = new URL(extractLink(await smtp.waitForMail({ to: email }), '/signup/'));
    const hash = decodeURIComponent(link.pathname.slice('/signup/'.length));
    const signedUp = await apiOk<{ token: ApiTokens }>(
      app.url,
      'POST',
      `/v1/signup/${encodeURIComponent(hash)}`,
      { body: { name, password: 'Member-pass9!', locale: 'ru' } },
    );
    await apiOk(app.url, 'PUT', '/v1/me/status', {
      token: signedUp.token.access_token,
      body: { status: onlineStatus, space_id: spaceId },
    });
    const me = await apiOk<{ id: number }>(app.url, 'GET', '/v1/me', { token: signedUp.token.access_token });
    return { ...signedUp.token, id: me.id };
  }

  async function pageFor(
    tokens: ApiTokens,
    path: string,
    opts: { locale?: string; width?: number } = {},
  ): Promise<Page> {
    const context = await signedInContext(browser, tokens, {
      baseURL: app.url,
      locale: opts.locale ?? 'ru-RU',
      viewport: { width: opts.width ?? 1381, height: 900 },
      timeoutMs: 45_000,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error on ${path}: ${error.message}`));
    await page.goto(path);
    return page;
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    slack = await startSlackEmulator({ team: { id: 'T0KOFE001', name: 'Кофейня Зерно' } });
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000', ...slack.env } }),
      launchBrowser(),
    ]);
    slack.eventsUrl = `${app.url}/v1/slack/events`;
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    const config = await apiOk<ConfigBody>(app.url, 'GET', '/v1/config', {
      token: owner.tokens.access_token,
    });
    spaceId = config.spaces[0]!.id;
    onlineStatus = config.user_statuses.find((s) => s.space_id === spaceId && !s.offline && !s.hidden)!.id;
    const account = await apiOk<{ sandbox_url: string }>(app.url, 'POST', '/v1/objects', {
      token: owner.tokens.access_token,
      body: { provider: 'sandbox', name: 'Кофейня «Зерно»' },
    });
    token = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
  }, 600_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await app?.stop();
    await smtp?.close();
    await slack?.close();
  });

  test('the administrator installs Slack through its OAuth page, picks a channel; an assignment arrives there', async () => {
    const page = await pageFor(owner.tokens, '/settings/notifications');
    const install = page.getByTestId('slack-install');
    await install.waitFor({ timeout: 45_000 });
    await screenshot(page, 'notifications-slack-install-ru-1381');
    await install.click();

    // Slack's consent page (the emulator's), then back through /callback/slack to the settings.
    await page.waitForURL((url) => url.href.startsWith(`${slack.url}/oauth/v2/authorize`), {
      timeout: 45_000,
    });
    const consent = new URL(page.url());
    expect(consent.searchParams.get('client_id')).toBe(slack.opts.clientId);
    expect(consent.searchParams.get('redirect_uri')).toBe(`${app.url}/callback/slack`);
    await page.locator('#slack-allow').click();
    await page.waitForURL(`${app.url}/settings/notifications`, { timeout: 45_000 });
    const installed = page.getByTestId('slack-installed');
    await installed.waitFor({ timeout: 45_000 });
    expect(await installed.textContent()).toContain('Кофейня Зерно');
    expect(slack.calls.some((c) => c.method === 'oauth.v2.access')).toBe(true);

    // The channel: #random.
    await page.getByTestId('slack-channel').click();
    await page.getByRole('option', { name: '#random' }).click();
    await page.getByTestId('slack-channel-save').click();
    await expect.poll(() => installed.textContent(), { timeout: 45_000 }).toContain('#random');
    // The defaults table has a Slack column now.
    await page.getByTestId('sub-assigned-slack').first().waitFor({ timeout: 45_000 });
    await screenshot(page, 'notifications-slack-installed-ru-1381');

    // A customer writes; Olga assigns it to Boris: the channel gets one message for Boris.
    const boris = await operator('Борис Коллега');
    const text = 'Можно ли забронировать столик на вечер?';
    await apiOk(app.url, 'POST', `/v1/sandbox/${token}/comments`, { body: { author_name: 'Мария', text } });
    const list = await apiOk<{ items: { id: number; text: string }[] }>(app.url, 'GET', '/v1/items', {
      token: owner.tokens.access_token,
    });
    const itemId = list.items.find((item) => item.text === text)!.id;
    await apiOk(app.url, 'PUT', `/v1/items/${itemId}/assign`, {
      token: owner.tokens.access_token,
      body: { user_id: boris.id },
    });
    await expect
      .poll(() => slack.messagesIn('random').map((m) => m.text), { timeout: 45_000 })
      .toEqual([expect.stringContaining('Ольга Админ назначает вам запись')]);
    const message = slack.messagesIn('random')[0]!.text;
    expect(message).toContain('Для: Борис Коллега');
    expect(message).toContain(text);
    expect(message).toContain(`${app.url}/items/${itemId}`);
    expect(slack.messagesIn('general')).toEqual([]);

    // Boris's own subscriptions offer Slack for this space.
    const mine = await pageFor(boris, '/settings/subscriptions');
    await mine.getByTestId('sub-assigned-slack').waitFor({ timeout: 45_000 });
  }, 600_000);

  test('settings/notifications with Slack in ru and en, 375 and 1381 wide; an uninstall shows as the error', async () => {
    for (const [locale, lang] of [
      ['ru-RU', 'ru'],
      ['en-US', 'en'],
    ] as const) {
      await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: lang } });
      for (const width of [375, 1381]) {
        const page = await pageFor(owner.tokens, '/settings/notifications', { locale, width });
        await page.getByTestId('slack-installed').waitFor({ timeout: 45_000 });
        await page.getByTestId('sub-assigned-slack').first().waitFor({ timeout: 45_000 });
        await screenshot(page, `notifications-slack-${lang}-${width}`);
      }
    }
    // The workspace removes the app: Slack's signed event breaks the install, and the screen says so.
    expect((await slack.uninstall()).status).toBe(200);
    const page = await pageFor(owner.tokens, '/settings/notifications', { locale: 'en-US' });
    const error = page.getByTestId('slack-error');
    await error.waitFor({ timeout: 45_000 });
    expect(await error.textContent()).toContain('app_uninstalled');
    await page.getByTestId('slack-reinstall').waitFor();
    await screenshot(page, 'notifications-slack-error-en-1381');
    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'ru' } });
  }, 600_000);
});
