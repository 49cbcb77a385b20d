// Issue 16, the action log: the administrator switches the log on, renames the space and creates a tag on
// their settings screens, changes a colleague's role and hides a sandbox comment; Settings → action log
// lists each with who, what, before → after and the address, the kind and user filters narrow it, and
// the CSV export holds the same entries. Then an operator's day — a task made from a comment and assigned,
// a reply through a template, a macro on three comments — is found there too. Shot in ru and en at 375
// and 1381 pixels.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AppHandle,
  apiOk,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  launchBrowser,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
} from '../harness';

interface ConfigBody {
  spaces: { id: number; name: string }[];
}

describe('action log', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let colleague: ConfirmedUser;
  let spaceId: number;
  let token: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } }),
      launchBrowser(),
    ]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    colleague = await createConfirmedUser(app.url, smtp, { name: 'Пётр Коллега', company: 'Другая' });
    const config = await apiOk<ConfigBody>(app.url, 'GET', '/v1/config', {
      token: owner.tokens.access_token,
    });
    spaceId = config.spaces[0]!.id;
    const account = await apiOk<{ sandbox_url: string }>(app.url, 'POST', '/v1/objects', {
      token: owner.tokens.access_token,
      body: { provider: 'sandbox', name: 'Кофейня «Зерно»' },
    });
    token = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('the administrator’s changes are listed with who, what, before → after and the address; filters; CSV', async () => {
    const auth = { token: owner.tokens.access_token };
    await apiOk(app.url, 'PUT', `/v1/spaces/${spaceId}/features`, {
      ...auth,
      body: { flags: { audit: true } },
    });

    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
      // Two cores shared with other suites: a screen can take longer than the default 15 s to settle.
      timeoutMs: 60_000,
    });
    const page = await context.newPage();

    // Renames the space on Settings → Other.
    await page.goto('/settings/other');
    const name = page.getByTestId('space-name');
    await name.waitFor({ timeout: 60_000 });
    const oldName = await name.inputValue();
    await name.fill('Кофейня на Садовой');
    await page.getByTestId('space-save').click();
    await expect
      .poll(async () => (await apiOk<ConfigBody>(app.url, 'GET', '/v1/config', auth)).spaces[0]!.name, {
        timeout: 60_000,
      })
      .toBe('Кофейня на Садовой');

    // Creates a tag on Settings → Tags.
    await page.goto('/settings/tags');
    await page.getByTestId('tag-add').click();
    await page.getByTestId('tag-name').fill('Доставка');
    await page.getByTestId('tag-save').click();
    await page.getByTestId('tag-row').filter({ hasText: 'Доставка' }).waitFor({ timeout: 60_000 });

    // A colleague with an account joins as an operator and becomes a moderator.
    const added = await apiOk<{ user: { id: number } }>(app.url, 'POST', '/v1/users', {
      ...auth,
      body: { email: colleague.email, space_id: spaceId, role: 'operator' },
    });
    await apiOk(app.url, 'PUT', `/v1/users/${added.user.id}`, {
      ...auth,
      body: { space_id: spaceId, role: 'moderator' },
    });

    // A customer comments on the sandbox page; the administrator hides it (the sandbox network hides).
    await apiOk(app.url, 'POST', `/v1/sandbox/${token}/comments`, {
      body: { author_name: 'Мария Ковалёва', text: 'Холодный кофе!' },
    });
    const list = await apiOk<{ items: { id: number; text: string }[] }>(app.url, 'GET', '/v1/items', auth);
    const itemId = list.items.find((item) => item.text === 'Холодный кофе!')!.id;
    await apiOk(app.url, 'POST', `/v1/items/${itemId}/hide`, auth);

    // Settings → action log: each change, in words.
    await page.goto('/settings/logs');
    const entry = (kind: string) => page.locator(`[data-testid="log-entry"][data-kind="${kind}"]`);
    await entry('item.hidden').waitFor({ timeout: 60_000 });
    const renamed = await entry('space.renamed').textContent();
    expect(renamed).toContain('Переименовал пространство');
    expect(renamed).toContain('Ольга Админ');
    expect(renamed).toContain(`«${oldName}»`);
    expect(renamed).toContain('«Кофейня на Садовой»');
    expect(renamed).toMatch(/127\.0\.0\.1|::1/);
    expect(await entry('tag.created').textContent()).toContain('«Доставка»');
    const role = await entry('user.role').textContent();
    expect(role).toContain('Оператор');
    expect(role).toContain('Модератор');
    expect(role).toContain('«Пётр Коллега»');
    expect(await entry('item.hidden').textContent()).toContain('Скрыл комментарий');
    await screenshot(page, 'action-log-ru-1381');

    // The kind filter: tags only.
    await page.getByTestId('logs-filter-kind').click();
    await page.getByRole('option', { name: 'Создал тег', exact: true }).click();
    await expect.poll(async () => page.getByTestId('log-entry').count(), { timeout: 60_000 }).toBe(1);
    expect(await page.getByTestId('log-entry').first().getAttribute('data-kind')).toBe('tag.created');
    // The user filter with nobody's entries there: nothing found; reset brings all back.
    await page.getByTestId('logs-filter-user').click();
    await page.getByRole('option', { name: 'Пётр Коллега', exact: true }).click();
    await page.getByTestId('logs-empty').waitFor();
    expect(await page.getByTestId('logs-empty').textContent()).toContain('Нет записей');
    await page.getByRole('button', { name: 'Сбросить' }).click();
    await entry('item.hidden').waitFor();

    // The CSV export: every entry, with kinds and the address.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('logs-export').click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8');
    for (const kind of ['space.renamed', 'tag.created', 'user.role', 'item.hidden', 'space.flag']) {
      expect(csv, kind).toContain(kind);
    }
    expect(csv).toContain('name: ');
    expect(csv).toContain('Кофейня на Садовой');

    // Retention: the setting is kept and itself logged.
    await page.getByTestId('logs-retention').fill('90');
    await page.getByTestId('logs-retention-save').click();
    await entry('space.retention').waitFor({ timeout: 60_000 });
    await context.close();
  });

  test('the operator’s day is in the log: a task created and assigned, a template reply, a macro on three comments', async () => {
    const auth = { token: owner.tokens.access_token };
    await apiOk(app.url, 'PUT', `/v1/spaces/${spaceId}/features`, {
      ...auth,
      body: { flags: { audit: true, issues: true, templates: true, macros: true } },
    });
    // The colleague joined in the first test; on its own this test adds them (a second add is refused).
    await apiOk(app.url, 'POST', '/v1/users', {
      ...auth,
      body: { email: colleague.email, space_id: spaceId, role: 'operator' },
    }).catch(() => undefined);
    await apiOk(app.url, 'POST', `/v1/sandbox/${token}/comments`, {
      body: { author_name: 'Иван Петров', text: 'Где мой заказ?' },
    });
    for (let i = 1; i <= 3; i++)
      await apiOk(app.url, 'POST', `/v1/sandbox/${token}/comments`, {
        body: { author_name: `Гость ${i}`, text: `Спасибо за кофе № ${i}` },
      });
    const items = (await apiOk<{ items: { id: number; text: string }[] }>(app.url, 'GET', '/v1/items', auth))
      .items;
    const itemId = items.find((x) => x.text === 'Где мой заказ?')!.id;
    await apiOk(app.url, 'POST', '/v1/templates', {
      ...auth,
      body: {
        space_id: spaceId,
        title: 'Извинение',
        text: 'Извините, {author_name}! Уже проверяем.',
        folder: '',
        personal: false,
        variants: {},
        variables: [],
      },
    });
    await apiOk(app.url, 'POST', '/v1/macros', {
      ...auth,
      body: {
        space_id: spaceId,
        name: 'Отметить и закрыть',
        personal: false,
        shortcut: null,
        sort_order: 0,
        actions: [{ type: 'close' }],
      },
    });

    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
      timeoutMs: 60_000,
    });
    const page = await context.newPage();

    // A task about the comment, made on its page.
    await page.goto(`/items/${itemId}`);
    await page.getByTestId('create-issue').click({ timeout: 60_000 });
    await page.getByTestId('issue-title').fill('Узнать про заказ');
    await page.getByTestId('issue-submit').click();
    await page
      .getByTestId('linked-issues')
      .getByTestId('issue-row')
      .filter({ hasText: 'Узнать про заказ' })
      .waitFor({ timeout: 60_000 });

    // Assigned to the colleague on the task page.
    const linked = await apiOk<{ items: { id: number }[] }>(
      app.url,
      'GET',
      `/v1/issues/linked?kind=item&id=${itemId}`,
      auth,
    );
    const taskId = linked.items[0]!.id;
    await page.goto(`/issues/${taskId}`);
    await page.getByTestId('issue-page-assignee').click({ timeout: 60_000 });
    await page.getByRole('option', { name: 'Пётр Коллега' }).click();
    await page.getByTestId('issue-save').click();
    await expect
      .poll(
        async () =>
          (await apiOk<{ assigned_user_id: number | null }>(app.url, 'GET', `/v1/issues/${taskId}`, auth))
            .assigned_user_id,
        { timeout: 60_000 },
      )
      .not.toBeNull();

    // A reply through the template: typed `/`, picked, filled, sent.
    await page.goto(`/items/${itemId}`);
    const box = page.getByTestId('composer-text');
    await box.waitFor({ timeout: 60_000 });
    await box.pressSequentially('/изв');
    await page.getByTestId('template-option').filter({ hasText: 'Извинение' }).waitFor({ timeout: 60_000 });
    await box.press('Enter');
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="composer-text"]') as HTMLTextAreaElement | null)?.value ===
        'Извините, Иван Петров! Уже проверяем.',
      undefined,
      { timeout: 60_000 },
    );
    await page.getByTestId('composer-send').click();
    await page
      .getByTestId('thread-reply')
      .filter({ hasText: 'Извините, Иван Петров!' })
      .waitFor({ timeout: 60_000 });

    // The macro on three comments selected in the list.
    await page.goto('/items');
    const row = (text: string) => page.getByTestId('item-row').filter({ hasText: text });
    await row('Спасибо за кофе № 3').waitFor({ timeout: 60_000 });
    for (let i = 1; i <= 3; i++) await row(`Спасибо за кофе № ${i}`).getByTestId('row-select').click();
    const bar = page.getByTestId('bulk-bar');
    await bar.waitFor();
    await bar.getByTestId('macro-menu').click();
    await page.getByTestId('macro-menu-item').filter({ hasText: 'Отметить и закрыть' }).click();
    await page.getByTestId('macro-preview').waitFor({ timeout: 60_000 });
    await page.getByTestId('macro-run').click();
    await page.getByTestId('macro-result').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('macro-summary').textContent()).toContain('Выполнено: 3');
    await page.getByTestId('macro-close').click();

    // Settings → action log has each of them, in words.
    await page.goto('/settings/logs');
    const entry = (kind: string) => page.locator(`[data-testid="log-entry"][data-kind="${kind}"]`).first();
    await entry('macro.run').waitFor({ timeout: 60_000 });
    const created = await entry('issue.created').textContent();
    expect(created).toContain('Создал задачу');
    expect(created).toContain('«Узнать про заказ»');
    expect(created).toContain('Ольга Админ');
    const assigned = await entry('issue.assigned').textContent();
    expect(assigned).toContain('Назначил задачу');
    expect(assigned).toContain('«Пётр Коллега»');
    const replied = await entry('template.used').textContent();
    expect(replied).toContain('Ответил по шаблону');
    expect(replied).toContain('«Извинение»');
    expect(replied).toContain(String(itemId));
    const ran = await entry('macro.run').textContent();
    expect(ran).toContain('Запустил макрос');
    expect(ran).toContain('«Отметить и закрыть»');
    expect(ran).toContain('выполнено');
    // A macro's steps are named as the macro form names them, not shown as data.
    const macroCreated = await entry('macro.created').textContent();
    expect(macroCreated).toContain('1. Закрыть');
    expect(macroCreated).not.toContain('"type"');
    await screenshot(page, 'action-log-day-ru-1381');

    // The kind filter narrows to tasks.
    await page.getByTestId('logs-filter-kind').click();
    await page.getByRole('option', { name: 'Задачи: все действия', exact: true }).click();
    await expect
      .poll(
        async () => [
          await page.locator('[data-testid="log-entry"]:not([data-kind^="issue."])').count(),
          await page.locator('[data-testid="log-entry"][data-kind^="issue."]').count(),
        ],
        { timeout: 60_000 },
      )
      .toEqual([0, 2]);
    await context.close();
  }, 600_000);

  test('Settings → action log in ru and en at 375 and 1381', async () => {
    for (const [locale, lang] of [
      ['ru-RU', 'ru'],
      ['en-US', 'en'],
    ] as const) {
      await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: lang } });
      for (const width of [375, 1381]) {
        const context = await signedInContext(browser, owner.tokens, {
          baseURL: app.url,
          locale,
          viewport: { width, height: 900 },
          timeoutMs: 60_000,
        });
        const page = await context.newPage();
        await page.goto('/settings/logs');
        try {
          await page
            .locator('[data-testid="log-entry"][data-kind="item.hidden"]')
            .waitFor({ timeout: 60_000 });
        } catch (error) {
          await screenshot(page, `action-log-failed-${lang}-${width}`);
          throw error;
        }
        await page
          .getByText(lang === 'ru' ? 'Скрыл комментарий' : 'Hid a comment')
          .first()
          .waitFor();
        expect(await page.getByTestId(width === 375 ? 'logs-cards' : 'logs-table').count()).toBe(1);
        await screenshot(page, `action-log-${lang}-${width}`);
        await context.close();
      }
    }
  });
});
