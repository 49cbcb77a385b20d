// Issue 16, reply templates: an administrator switches templates on and creates one with
// {author_name}; an operator answers a sandbox comment by typing `/` and picking it; the customer's
// sandbox page shows the reply with the author's name filled in; the template counts one use.
// Settings → templates is shot in ru and en, desktop and mobile.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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

describe('reply templates', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let spaceId: number;
  let onlineStatus: number;
  let token: string;
  let sandboxPath: string;

  async function operator(name: string): Promise<ApiTokens> {
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
      {
        body: { name, password: 'Member-pass9!', locale: 'ru' },
      },
    );
    await apiOk(app.url, 'PUT', '/v1/me/status', {
      token: signedUp.token.access_token,
      body: { status: onlineStatus, space_id: spaceId },
    });
    return signedUp.token;
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } }),
      launchBrowser(),
    ]);
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
    sandboxPath = new URL(account.sandbox_url).pathname;
    token = sandboxPath.split('/').filter(Boolean).pop()!;
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('the administrator switches templates on and creates one; an operator replies with it by `/`; the customer sees the name filled in', async () => {
    await apiOk(app.url, 'PUT', `/v1/spaces/${spaceId}/features`, {
      token: owner.tokens.access_token,
      body: { flags: { templates: true } },
    });

    // The administrator creates the template on Settings → templates.
    const admin = await signedInContext(browser, owner.tokens, { baseURL: app.url, locale: 'ru-RU' });
    const page = await admin.newPage();
    await page.goto('/settings/templates');
    await page.getByTestId('templates-empty').waitFor({ timeout: 45_000 });
    await screenshot(page, 'templates-empty-ru');
    await page.getByTestId('template-add').click();
    await page.getByTestId('template-title').waitFor();
    await page.getByTestId('template-save').click();
    await page.getByText('Введите название').waitFor();
    await page.getByTestId('template-title').fill('Благодарность');
    await page.getByLabel('Папка').fill('Вежливость');
    await page.getByTestId('template-text').fill('Спасибо, {author_name}! Ждём вас снова.');
    await screenshot(page, 'templates-form-ru');
    await page.getByTestId('template-save').click();
    await page.getByTestId('template-row').filter({ hasText: 'Благодарность' }).waitFor({ timeout: 45_000 });
    await screenshot(page, 'templates-list-ru');
    await admin.close();

    // A customer comments on the sandbox page.
    await apiOk(app.url, 'POST', `/v1/sandbox/${token}/comments`, {
      body: { author_name: 'Мария Ковалёва', text: 'Отличный кофе!' },
    });
    const list = await apiOk<{ items: { id: number; text: string }[] }>(app.url, 'GET', '/v1/items', {
      token: owner.tokens.access_token,
    });
    const itemId = list.items.find((item) => item.text === 'Отличный кофе!')!.id;

    // The operator types `/` and a part of the title, picks the template and sends.
    const anna = await signedInContext(browser, await operator('Анна Оператор'), {
      baseURL: app.url,
      locale: 'ru-RU',
    });
    const inbox = await anna.newPage();
    await inbox.goto(`/items/${itemId}`);
    const box = inbox.getByTestId('composer-text');
    await box.waitFor({ timeout: 45_000 });
    await box.pressSequentially('/благ');
    const option = inbox.getByTestId('template-option').filter({ hasText: 'Благодарность' });
    await option.waitFor({ timeout: 45_000 });
    await screenshot(inbox, 'templates-composer-picker-ru');
    // Enter picks the highlighted (first) template; a click picks too.
    await box.press('Enter');
    await inbox.waitForFunction(
      () =>
        (document.querySelector('[data-testid="composer-text"]') as HTMLTextAreaElement | null)?.value ===
        'Спасибо, Мария Ковалёва! Ждём вас снова.',
      undefined,
      { timeout: 45_000 },
    );
    const left = await inbox.getByTestId('composer-chars').textContent();
    expect(left).toContain(`Осталось символов: ${4096 - 'Спасибо, Мария Ковалёва! Ждём вас снова.'.length}`);
    await inbox.getByTestId('composer-send').click();
    await inbox.getByTestId('thread-reply').filter({ hasText: 'Спасибо, Мария Ковалёва!' }).waitFor();

    // The customer page shows the filled reply.
    const customer = await browser.newContext({ baseURL: app.url, locale: 'ru-RU' });
    const sandbox = await customer.newPage();
    await sandbox.goto(sandboxPath);
    await sandbox
      .locator('[data-testid="sandbox-entry"][data-from-account]')
      .filter({ hasText: 'Спасибо, Мария Ковалёва! Ждём вас снова.' })
      .waitFor({ timeout: 45_000 });
    await screenshot(sandbox, 'templates-sandbox-reply-ru');
    await customer.close();

    // The template counts one use.
    type Templates = { items: { title: string; usage_count: number }[] };
    await expect
      .poll(async () => {
        const now = await apiOk<Templates>(app.url, 'GET', '/v1/templates', {
          token: owner.tokens.access_token,
        });
        return now.items.find((x) => x.title === 'Благодарность')?.usage_count;
      })
      .toBe(1);

    // The operator's only settings entry opens the templates list (no longer a placeholder).
    await inbox.getByTestId('settings-menu').click();
    await inbox.getByTestId('settings-entry-templates').click();
    await inbox.getByTestId('template-row').filter({ hasText: 'Благодарность' }).waitFor({ timeout: 45_000 });
    expect(await inbox.getByTestId('template-row').first().textContent()).toContain('1 использование');
    await anna.close();
  });

  test('Settings → templates in ru and en, desktop and mobile', async () => {
    for (const [locale, lang] of [
      ['ru-RU', 'ru'],
      ['en-US', 'en'],
    ] as const) {
      await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: lang } });
      for (const [size, viewport] of [
        ['desktop', { width: 1280, height: 800 }],
        ['mobile', { width: 390, height: 844 }],
      ] as const) {
        const context = await signedInContext(browser, owner.tokens, { baseURL: app.url, locale, viewport });
        const page = await context.newPage();
        await page.goto('/settings/templates');
        await page.getByTestId('template-row').first().waitFor({ timeout: 45_000 });
        await page
          .getByText(lang === 'ru' ? 'Шаблоны ответов' : 'Reply templates')
          .first()
          .waitFor();
        await screenshot(page, `templates-list-${lang}-${size}`);
        await page.getByTestId('template-row').first().getByRole('link').click();
        await page.getByTestId('template-text').waitFor();
        await screenshot(page, `templates-form-${lang}-${size}`);
        await context.close();
      }
    }
  });
});
