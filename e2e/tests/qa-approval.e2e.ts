// Issue 21, approval mode: the administrator marks a new operator in settings/qa; the operator's reply to
// a sandbox comment is held ("Awaiting approval" in the thread, nothing on the sandbox); the administrator
// (a quality-check reviewer) approves it in qa/review and the reply reaches the sandbox network.
// Screenshots: settings/qa ru 1381, the held reply en 375, the queue ru 375 and ru 1381.
import type { Page } from 'playwright-core';
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
  runAdmin,
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

describe('quality check: approval of replies', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let operator: ApiTokens;
  let spaceId: number;
  let sandbox: string;
  const env = { AUTH_RATE_LIMIT_PER_IP: '1000' };
  const QUESTION = 'Можно вернуть зерно, если не понравилось?';
  const REPLY = 'Да, в течение 14 дней — напишите номер заказа.';

  const ownerApi = <T>(method: string, path: string, body?: unknown) =>
    apiOk<T>(app.url, method, path, { token: owner.tokens.access_token, ...(body ? { body } : {}) });

  async function open(tokens: ApiTokens, path: string, locale: string, width: number): Promise<Page> {
    const context = await signedInContext(browser, tokens, {
      baseURL: app.url,
      locale,
      viewport: { width, height: 900 },
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await page.goto(path);
    return page;
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([startApp({ smtp, env }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    const config = await ownerApi<ConfigBody>('GET', '/v1/config');
    spaceId = config.spaces[0]!.id;
    const dataDir = app.dataDir;
    await app.stop({ keepData: true });
    runAdmin(dataDir, ['set-tariff', String(spaceId), '20']);
    app = await startApp({ smtp, env, dataDir });
    await ownerApi('PUT', `/v1/spaces/${spaceId}/features`, { flags: { qa: true } });
    const online = config.user_statuses.find((s) => s.space_id === spaceId && !s.offline && !s.hidden)!.id;
    const account = await ownerApi<{ sandbox_url: string }>('POST', '/v1/objects', {
      provider: 'sandbox',
      name: 'Кофейня «Зерно»',
    });
    sandbox = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;

    const email = uniqueEmail('operator');
    await ownerApi('POST', '/v1/users', { email, space_id: spaceId, role: 'operator' });
    const link = new URL(extractLink(await smtp.waitForMail({ to: email }), '/signup/'));
    const hash = decodeURIComponent(link.pathname.slice('/signup/'.length));
    operator = (
      await apiOk<{ token: ApiTokens }>(app.url, 'POST', `/v1/signup/${encodeURIComponent(hash)}`, {
        body: { name: 'Ivan Newcomer', password: 'Member-pass9!', locale: 'en' },
      })
    ).token;
    await apiOk(app.url, 'PUT', '/v1/me/status', {
      token: operator.access_token,
      body: { status: online, space_id: spaceId },
    });
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('a held reply is approved in the browser and reaches the network', async () => {
    // settings/qa: the administrator switches approval on for the newcomer.
    const settings = await open(owner.tokens, '/settings/qa', 'ru-RU', 1381);
    const member = settings.getByTestId('approval-member').filter({ hasText: 'Ivan Newcomer' });
    await member.waitFor({ timeout: 60_000 });
    // The switch follows the server (it flips when the change is saved), so a click, then its result.
    await member.getByRole('switch').click({ force: true });
    await expect.poll(() => member.getByRole('switch').isChecked(), { timeout: 30_000 }).toBe(true);
    await member.getByText('Нужно одобрение').waitFor();
    await screenshot(settings, 'qa-approval-settings-ru-1381');
    await settings.context().close();

    // The operator answers a customer's comment: the reply is held, the sandbox has nothing.
    await apiOk(app.url, 'POST', `/v1/sandbox/${sandbox}/comments`, {
      body: { author_name: 'Мария Ковалёва', text: QUESTION },
    });
    const list = await ownerApi<{ items: { id: number; text: string }[] }>('GET', '/v1/items');
    const asked = list.items.find((x) => x.text === QUESTION)!;
    const sent = await apiOk<{ reply: { delivery: string } }>(
      app.url,
      'POST',
      `/v1/items/${asked.id}/reply`,
      {
        token: operator.access_token,
        body: { text: REPLY },
      },
    );
    expect(sent.reply.delivery).toBe('approval');
    expect(JSON.stringify(await apiOk<unknown>(app.url, 'GET', `/v1/sandbox/${sandbox}`))).not.toContain(
      REPLY,
    );

    // In the thread the operator sees it waiting, with a way to withdraw it.
    const mine = await open(operator, `/items/${asked.id}`, 'en-US', 375);
    const held = mine.getByTestId('thread-reply').filter({ hasText: REPLY });
    await held.getByText('Awaiting approval').waitFor({ timeout: 60_000 });
    await held.getByTestId('delivery-withdraw').waitFor();
    await screenshot(mine, 'qa-approval-held-en-375');

    // The reviewer's queue on a phone, then on a desktop, where they approve it.
    const phone = await open(owner.tokens, '/qa/review', 'ru-RU', 375);
    await phone.getByText('Ждут одобрения').click({ timeout: 60_000 });
    await phone
      .getByTestId('approval-card')
      .filter({ hasText: 'Ivan Newcomer' })
      .waitFor({ timeout: 60_000 });
    await phone.getByTestId('approval-deadline').first().waitFor();
    await screenshot(phone, 'qa-approval-queue-ru-375');
    await phone.context().close();

    const desk = await open(owner.tokens, '/qa/review', 'ru-RU', 1381);
    await desk.getByText('Ждут одобрения').click({ timeout: 60_000 });
    const card = desk.getByTestId('approval-card').filter({ hasText: 'Ivan Newcomer' });
    await card.waitFor({ timeout: 60_000 });
    expect(await card.getByTestId('approval-text').inputValue()).toBe(REPLY);
    await card.getByText(QUESTION).waitFor();
    await screenshot(desk, 'qa-approval-queue-ru-1381');
    await card.getByTestId('approval-approve').click();
    await desk.getByText('Ответ одобрен и отправляется').waitFor();
    await desk.getByTestId('approvals-empty').waitFor({ timeout: 30_000 });

    // The network has it, once; the operator's thread shows it sent (live).
    await expect
      .poll(async () => JSON.stringify(await apiOk<unknown>(app.url, 'GET', `/v1/sandbox/${sandbox}`)), {
        timeout: 60_000,
      })
      .toContain(REPLY);
    const page = JSON.stringify(await apiOk<unknown>(app.url, 'GET', `/v1/sandbox/${sandbox}`));
    expect(page.split(REPLY).length - 1).toBe(1);
    await held.getByText('Awaiting approval').waitFor({ state: 'detached', timeout: 60_000 });
    await desk.context().close();
    await mine.context().close();
  }, 600_000);
});
