// Issue 17, auto-rules: an administrator (special tariff, set by the operator's CLI) builds a rule in the
// browser — text contains «дурак» → add a tag and close — a matching sandbox comment arrives and ends up
// closed "by auto-rule" and tagged while a polite one stays open, and the rule's dry run lists the
// insult only. One shot in ru at 1381 px (the form with the dry run) and one in en at 375 px (the list).
import AxeBuilder from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AppHandle,
  apiOk,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  launchBrowser,
  runAdmin,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
} from '../harness';

interface ItemBody {
  item: { id: number; status: string; close_reason: string | null; tags: number[] };
}

describe('auto-rules', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let spaceId: number;
  let sandboxToken: string;
  let tagId: number;
  const env = { AUTH_RATE_LIMIT_PER_IP: '1000', TEST_CLOCK: '1' };

  const api = <T>(method: string, path: string, body?: unknown) =>
    apiOk<T>(app.url, method, path, { token: owner.tokens.access_token, ...(body ? { body } : {}) });
  const itemByText = async (text: string) => {
    const list = await api<{ items: { id: number; text: string }[] }>(
      'GET',
      '/v1/items?status=new&status=closed',
    );
    return list.items.find((x) => x.text === text)?.id;
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([startApp({ smtp, env }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    spaceId = (await api<{ spaces: { id: number }[] }>('GET', '/v1/config')).spaces[0]!.id;
    // Auto-rules come with a special tariff: the operator moves the space there.
    const dataDir = app.dataDir;
    await app.stop({ keepData: true });
    runAdmin(dataDir, ['set-tariff', String(spaceId), '20']);
    app = await startApp({ smtp, env, dataDir });
    const account = await api<{ sandbox_url: string }>('POST', '/v1/objects', {
      provider: 'sandbox',
      name: 'Кофейня «Зерно»',
    });
    sandboxToken = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
    tagId = (await api<{ id: number }>('POST', '/v1/tags', { space_id: spaceId, name: 'Грубость' })).id;
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('a rule built in the browser closes and tags a matching comment; the dry run lists it', async () => {
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await page.goto('/settings/rules');
    try {
      await page.getByTestId('rules-empty').waitFor({ timeout: 60_000 });
    } catch (error) {
      await screenshot(page, 'rules-failed-empty');
      console.error(await page.locator('body').textContent());
      throw error;
    }
    await page.getByTestId('rule-add').click();
    await page.getByTestId('rule-name').waitFor();
    await page.getByTestId('rule-save').click();
    await page.getByText('Введите название правила').waitFor();
    await page.getByTestId('rule-name').fill('Оскорбления');
    await page.getByTestId('rule-add-condition').click();
    await page.getByRole('option', { name: 'Текст содержит', exact: true }).click();
    await page.getByTestId('rule-words').fill('дурак');
    await page.getByTestId('rule-words').press('Enter');
    const addAction = async (label: string) => {
      await page.getByTestId('rule-add-action').click();
      await page.getByRole('option', { name: label, exact: true }).click();
    };
    await addAction('Добавить теги');
    await page.getByTestId('macro-tags').click();
    await page.getByRole('option', { name: 'Грубость' }).click();
    await page.keyboard.press('Escape');
    await addAction('Закрыть');
    expect(await page.getByTestId('rule-action').count()).toBe(2);
    await page.getByTestId('rule-save').click();
    await page.getByTestId('rule-row').filter({ hasText: 'Оскорбления' }).waitFor({ timeout: 60_000 });

    // Comments arrive through the sandbox (the one ingestion pipeline); the rules worker runs at once.
    for (const text of ['Вы все дураки', 'Очень вкусный кофе']) {
      await apiOk(app.url, 'POST', `/v1/sandbox/${sandboxToken}/comments`, {
        body: { author_name: 'Пётр Соколов', text },
      });
    }
    const insult = (await itemByText('Вы все дураки'))!;
    const polite = (await itemByText('Очень вкусный кофе'))!;
    const deadline = Date.now() + 60_000;
    let item: ItemBody['item'];
    for (;;) {
      item = (await api<ItemBody>('GET', `/v1/items/${insult}`)).item;
      if (item.status === 'closed' || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(item).toMatchObject({ status: 'closed', close_reason: 'autorule', tags: [tagId] });
    expect((await api<ItemBody>('GET', `/v1/items/${polite}`)).item.status).toBe('new');

    // The dry run of the saved rule: the insult only, with what it would do.
    await page.getByTestId('rule-row').filter({ hasText: 'Оскорбления' }).getByRole('link').click();
    await page.getByTestId('rule-dry-run-start').click();
    await page.getByTestId('rule-dry-run-summary').waitFor({ timeout: 60_000 });
    const rows = page.getByTestId('rule-dry-run-item');
    expect(await rows.count()).toBe(1);
    await rows.filter({ hasText: 'Вы все дураки' }).waitFor();
    // Its recent runs (the stats drill-down): the insult, done.
    await page.getByTestId('rule-run').filter({ hasText: 'Вы все дураки' }).getByText('Выполнено').waitFor();
    await screenshot(page, 'rules-form-ru-1381');
    // The form with its conditions, actions, dry run and runs, and the "saved" notice: no serious or
    // critical axe violation.
    const axe = await new AxeBuilder({ page }).analyze();
    const serious = axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')} ${n.html.slice(0, 160)}`));
    expect(serious).toEqual([]);
    await context.close();
  }, 600_000);

  test('a no-reply-in-10-minutes rule assigns once the test clock moves past it', async () => {
    const me = (await api<{ id: number }>('GET', '/v1/me')).id;
    await api('POST', '/v1/rules', {
      space_id: spaceId,
      name: 'Без ответа 10 минут',
      trigger: 'no_reply',
      minutes: 10,
      paused: false,
      stop_processing: false,
      position: 1,
      conditions: { all: [{ type: 'text_contains', values: ['доставк'] }] },
      actions: [{ type: 'assign', user_id: me }],
    });
    await apiOk(app.url, 'POST', `/v1/sandbox/${sandboxToken}/comments`, {
      body: { author_name: 'Анна Смирнова', text: 'Когда будет доставка?' },
    });
    const waiting = (await itemByText('Когда будет доставка?'))!;
    await apiOk(app.url, 'POST', '/v1/test/clock', { body: { offset_ms: 5 * 60_000 } });
    expect(
      (await api<{ item: { assigned_user_id: number | null } }>('GET', `/v1/items/${waiting}`)).item,
    ).toMatchObject({ assigned_user_id: null });
    await apiOk(app.url, 'POST', '/v1/test/clock', { body: { offset_ms: 11 * 60_000 } });
    expect(
      (await api<{ item: { assigned_user_id: number | null } }>('GET', `/v1/items/${waiting}`)).item,
    ).toMatchObject({ assigned_user_id: me });
    await apiOk(app.url, 'POST', '/v1/test/clock', { body: { offset_ms: 0 } });
  }, 300_000);

  test('the list in en at 375 px', async () => {
    await api('PUT', '/v1/me', { locale: 'en' });
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'en-US',
      viewport: { width: 375, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/settings/rules');
    await page.getByTestId('rule-row').first().waitFor({ timeout: 60_000 });
    await page.getByText('Auto-rules').first().waitFor();
    await screenshot(page, 'rules-list-en-375');
    // The form's later choices: the waiting trigger takes hours; the rule-only actions have their fields.
    await page.getByTestId('rule-add').click();
    await page.getByTestId('rule-trigger').click();
    await page
      .getByRole('option', { name: 'Waiting for the customer more than N hours', exact: true })
      .click();
    await page.getByTestId('rule-hours').fill('4');
    await page.getByTestId('rule-add-action').click();
    await page.getByRole('option', { name: 'Assign in turn within a group', exact: true }).click();
    await page.getByTestId('rule-capacity').waitFor();
    await page.getByTestId('rule-add-action').click();
    await page.getByRole('option', { name: 'Call a webhook', exact: true }).click();
    await page.getByTestId('rule-webhook').waitFor();
    await page.getByTestId('rule-save').click();
    await screenshot(page, 'rules-form-new-en-375');
    await context.close();
  }, 300_000);
});
